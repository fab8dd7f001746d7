/**
 * The cold index's folds (what its worker threads run) give the index entry and the usage records
 * the daemon's own incremental read gives, for each harness, from byte 0 and read on from an offset.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../discovery/contract.ts';
import type { FileResult } from '../discovery/index-pool/index.ts';
import { INDEX_FOLDS } from './index-folds.ts';
import { readRollout } from './codex/discovery/rollout-file.ts';
import { modelSwitchRollout, rec, TID, writeRollout } from './codex/discovery/rollout-fixtures.test-support.ts';
import { scanTranscripts } from './pi/discovery/transcript-scan.ts';
import { assistant, header, jsonl, sessionFileName, user, writeSession } from './pi/discovery/fixture-records.test-support.ts';
import { assistantLine, userLine, writeTranscript } from './claude/discovery/claude-fixtures.test-support.ts';

const CLAUDE_ID = '00000000-0000-4000-8000-000000000042';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-index-folds-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fold(kind: string, file: string, from = 0, summary: unknown = null): Extract<FileResult, { ok: true }> {
  const r = INDEX_FOLDS[kind]!({ path: file, from, summary, bytes: fs.statSync(file).size - from });
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r;
}

test('codex: the worker fold gives the summary, offset and usage records of readRollout, then reads on', () => {
  const home = path.join(tmp, 'codex');
  const file = writeRollout(home, TID, modelSwitchRollout());
  const index = createMemoryTranscriptIndex();
  const counters = { filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] };
  readRollout(file, index, counters);
  const first = fold('codex', file);
  assert.ok(first.usage.length > 0);
  assert.deepEqual(first.summary, index.get(file)?.summary);
  assert.equal(first.offset, index.get(file)?.offset);
  assert.deepEqual(first.usage, index.usage());
  fs.appendFileSync(file, `${[rec.usageRecord(7, 3, 0, { input_tokens: 999_999, cached_input_tokens: 0, output_tokens: 99_999, reasoning_output_tokens: 0, total_tokens: 1_099_998 })].join('\n')}\n`);
  const before = index.usage().length;
  readRollout(file, index, counters);
  const next = fold('codex', file, first.offset, structuredClone(first.summary));
  assert.deepEqual(next.summary, index.get(file)?.summary);
  assert.deepEqual(next.usage, index.usage().slice(before));
});

test('pi and omp: the worker fold gives the summary, offset and usage records of the scan', () => {
  const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
  for (const harness of ['pi', 'omp'] as const) {
    const sessionsDir = path.join(tmp, harness, 'sessions');
    const dir = path.join(sessionsDir, '--home-dev-p--');
    fs.mkdirSync(dir, { recursive: true });
    const file = writeSession(path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z')), [
      header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), user('hi', '2026-11-30T06:57:23.000Z'),
      assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', model: 'claude-sonnet-4-5', usage: { input: 100, output: 5, cacheRead: 40 }, cost: 0.0123 }),
      assistant({ ts: '2026-11-30T06:58:01.000Z', text: 'y', usage: { input: 50, output: 1 }, cost: 0 }),
    ]);
    const index = createMemoryTranscriptIndex();
    scanTranscripts({ harness, sessionsDir, index });
    const r = fold(harness, file);
    assert.equal(r.usage.length, 2, harness);
    assert.deepEqual(r.usage, index.usage(), harness);
    assert.deepEqual(r.summary, index.get(file)?.summary, harness);
    fs.appendFileSync(file, jsonl([assistant({ ts: '2026-11-30T06:59:01.000Z', text: 'z', usage: { input: 7, output: 2 } })]));
    scanTranscripts({ harness, sessionsDir, index });
    const next = fold(harness, file, r.offset, structuredClone(r.summary));
    assert.deepEqual(next.usage, index.usage().slice(2), harness);
    assert.deepEqual(next.summary, index.get(file)?.summary, harness);
  }
});

test('a fold asked for no usage records (a cold index\'s first pass) gives none, and the same summary and offset, for each harness', () => {
  const codex = writeRollout(path.join(tmp, 'codex-nousage'), TID, modelSwitchRollout());
  const claudeHome = path.join(tmp, 'claude-nousage');
  const claude = writeTranscript(claudeHome, CLAUDE_ID, [
    userLine('hi', { sessionId: CLAUDE_ID }),
    assistantLine({ id: 'msg_1', requestId: 'req_1', input: 10, output: 2, sessionId: CLAUDE_ID }),
    // Messages without an id are numbered (their records' keys): the summary counts them either way.
    JSON.stringify({ ...JSON.parse(assistantLine({ id: 'x', input: 3, output: 1, sessionId: CLAUDE_ID })), message: { role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: 3, output_tokens: 1 } } }),
  ], '/home/dev/p');
  const piDir = path.join(tmp, 'pi-nousage', 'sessions', '--home-dev-p--');
  fs.mkdirSync(piDir, { recursive: true });
  const PI_ID = '01a22b3e-7108-72cf-96ba-1191d1508087';
  const pi = writeSession(path.join(piDir, sessionFileName(PI_ID, '2026-11-30T06:57:22.185Z')), [
    header(PI_ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), user('hi', '2026-11-30T06:57:23.000Z'),
    assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', model: 'claude-sonnet-4-5', usage: { input: 100, output: 5 }, cost: 0.01 }),
  ]);
  for (const [kind, file] of [['claude', claude], ['codex', codex], ['pi', pi], ['omp', pi]] as const) {
    const withUsage = fold(kind, file);
    const r = INDEX_FOLDS[kind]!({ path: file, from: 0, summary: null, bytes: fs.statSync(file).size, usage: false });
    assert.ok(r.ok, kind);
    assert.ok(withUsage.usage.length > 0, kind);
    assert.deepEqual(r.usage, [], kind);
    assert.deepEqual(r.summary, withUsage.summary, kind);
    assert.equal(r.offset, withUsage.offset, kind);
  }
});
