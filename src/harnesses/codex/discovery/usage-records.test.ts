/**
 * Usage records of Codex rollouts: one per model request (token_usage_record and token_count repeat a
 * request's running total: one record), at the model in force, none again when the file is read on.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { readRollout } from './rollout-file.ts';
import { modelSwitchRollout, rec, TID, writeRollout } from './rollout-fixtures.test-support.ts';
import { openSqliteStore } from '../../../store/index.ts';
import { createUsageService } from '../../../usage/index.ts';

const counters = () => ({ filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] as string[] });

describe('codex usage records', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-codex-usage-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('one record per request, at the model of its turn; a resume with another -m prices each turn at its own', async () => {
    const path = writeRollout(home, TID, modelSwitchRollout());
    const index = createMemoryTranscriptIndex();
    readRollout(path, index, counters());
    const recs = index.usage();
    // Each request is written twice (token_usage_record, then token_count): both carry one key.
    assert.deepEqual([...new Set(recs.map((r) => r.key))].length, 2);
    const store = openSqliteStore({ path: ':memory:' });
    store.transcriptIndex.put({ path, harness: 'codex', size: 1, mtimeMs: 1, offset: 1, summary: {}, usage: recs });
    await new Promise((r) => setImmediate(r));
    const usage = createUsageService({ repo: store.usage, session: () => undefined });
    const byModel = await usage.report({ by: 'model', tz: 'UTC' });
    assert.deepEqual(byModel.rows.map((r) => [r.key, r.tokens.input, r.tokens.output, r.costUsd]), [
      ['gpt-5-codex', 100, 10, (100 * 1.25 + 10 * 10) / 1e6],
      ['gpt-5-mini', 100, 10, (100 * 0.25 + 10 * 2) / 1e6],
    ]);
    assert.equal((await usage.report({ by: 'session', tz: 'UTC' })).rows[0]?.key, TID);
    store.close();
  });

  it('reading on from the stored offset emits only the new requests; cached input is not input', () => {
    const id = '01a22b39-0000-7000-8000-0000000000a1';
    const path = writeRollout(home, id, [rec.meta(id), rec.turnContext('gpt-5'), rec.tokenCount(100, 10)]);
    const index = createMemoryTranscriptIndex();
    readRollout(path, index, counters());
    appendFileSync(path, `${rec.tokenCount(300, 30, 150, { input_tokens: 200, cached_input_tokens: 150, output_tokens: 20, reasoning_output_tokens: 5, total_tokens: 220 })}\n`);
    readRollout(path, index, counters());
    readRollout(path, index, counters());
    assert.deepEqual(index.usage().map((r) => r.tokens), [
      { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      { input: 50, output: 20, cacheRead: 150, cacheWrite: 0, reasoning: 5 },
    ]);
  });
});
