import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { scanTranscripts } from './transcript-scan.ts';
import { assistant, header, jsonl, sessionFileName, user, writeSession } from './fixture-records.test-support.ts';

const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-usage-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('pi and omp usage records', () => {
  it('one per assistant message, once, with the cost pi recorded (0 means none)', () => {
    const sessionsDir = path.join(tmp, 'sessions');
    const dir = path.join(sessionsDir, '--home-dev-p--');
    fs.mkdirSync(dir, { recursive: true });
    const index = createMemoryTranscriptIndex();
    const file = writeSession(path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z')), [
      header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), user('hi', '2026-11-30T06:57:23.000Z'),
      assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', model: 'claude-sonnet-4-5', usage: { input: 100, output: 5, cacheRead: 40 }, cost: 0.0123 }),
    ]);
    scanTranscripts({ harness: 'omp', sessionsDir, index });
    fs.appendFileSync(file, jsonl([assistant({ ts: '2026-11-30T06:58:01.000Z', text: 'y', usage: { input: 50, output: 1 }, cost: 0 })]));
    scanTranscripts({ harness: 'omp', sessionsDir, index });
    scanTranscripts({ harness: 'omp', sessionsDir, index });
    const recs = index.usage();
    assert.deepEqual(recs.map((r) => [r.harness, r.sessionId, r.model, r.tokens.input, r.tokens.cacheRead, r.costUsd]), [
      ['omp', ID, 'claude-sonnet-4-5', 100, 40, 0.0123],
      ['omp', ID, 'fake-model', 50, 0, null],
    ]);
    assert.equal(new Set(recs.map((r) => r.key)).size, 2);
  });
});
