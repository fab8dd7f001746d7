import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { scanTranscripts } from './transcript-scan.ts';
import { assistant, header, jsonl, sessionFileName, toolResult, user, writeSession } from './fixture-records.test-support.ts';

const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
const ID2 = '01a22b3f-1418-70af-926e-e05b29b6c8c0';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-scan-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function setup(name: string) {
  const sessionsDir = path.join(tmp, name, 'sessions');
  const dir = path.join(sessionsDir, '--home-dev-p--');
  fs.mkdirSync(dir, { recursive: true });
  return { sessionsDir, dir, index: createMemoryTranscriptIndex() };
}

describe('incremental transcript scan', () => {
  it('reads only new bytes on a later scan and keeps folding into the saved summary', () => {
    const { sessionsDir, dir, index } = setup('incremental');
    const file = writeSession(path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z')), [
      header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), user('hi', '2026-11-30T06:57:23.000Z'), assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', usage: { input: 100, output: 1 } }),
    ]);
    const first = scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.equal(first.transcripts[0]?.summary.tokens.input, 100);
    const offset1 = index.get(file)?.offset;
    assert.equal(offset1, fs.statSync(file).size);
    fs.appendFileSync(file, jsonl([user('again', '2026-11-30T06:58:00.000Z'), assistant({ ts: '2026-11-30T06:58:01.000Z', text: 'y', usage: { input: 50, output: 1 } })]));
    const second = scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.equal(second.transcripts[0]?.summary.tokens.input, 150, 'old lines not counted twice');
    assert.equal(second.transcripts[0]?.summary.linesParsed, 5);
  });

  it('leaves a truncated last line for later and reads it once complete', () => {
    const { sessionsDir, dir, index } = setup('truncated');
    const file = path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z'));
    const done = JSON.stringify(assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', usage: { input: 7, output: 1 } }));
    fs.writeFileSync(file, jsonl([header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), user('hi', '2026-11-30T06:57:23.000Z')]) + done.slice(0, 40));
    const a = scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.equal(a.transcripts[0]?.summary.tokens.input, 0);
    assert.equal(a.transcripts[0]?.summary.linesSkipped, 0, 'a partial line is not a bad line');
    fs.appendFileSync(file, done.slice(40) + '\n');
    const b = scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.equal(b.transcripts[0]?.summary.tokens.input, 7);
  });

  it('re-reads from 0 a file that shrank (rewritten)', () => {
    const { sessionsDir, dir, index } = setup('shrink');
    const file = writeSession(path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z')), [
      header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', usage: { input: 100, output: 1 } }), assistant({ ts: '2026-11-30T06:57:25.000Z', text: 'x', usage: { input: 100, output: 1 } }),
    ]);
    scanTranscripts({ harness: 'pi', sessionsDir, index });
    writeSession(file, [header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', usage: { input: 3, output: 1 } })]);
    assert.equal(scanTranscripts({ harness: 'pi', sessionsDir, index }).transcripts[0]?.summary.tokens.input, 3);
  });

  it('skips and counts malformed, binary, invalid UTF-8 and 50 MB lines, and keeps the good ones', () => {
    const { sessionsDir, dir, index } = setup('bad-lines');
    const file = path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z'));
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, jsonl([header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z')]));
    fs.writeSync(fd, '{"type":"message", oops\n');
    fs.writeSync(fd, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])); // {"a":"\xff\xfe"}
    fs.writeSync(fd, Buffer.from([0x00, 0x01, 0x02, 0x0a]));
    const big = Buffer.alloc(50 * 1024 * 1024, 0x61);
    big.write('{"type":"message","x":"', 0);
    big[big.length - 1] = 0x0a;
    fs.writeSync(fd, big);
    fs.writeSync(fd, jsonl([assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'after', usage: { input: 9, output: 1 } })]));
    fs.closeSync(fd);
    const r = scanTranscripts({ harness: 'pi', sessionsDir, index });
    const s = r.transcripts[0]?.summary;
    assert.equal(s?.linesSkipped, 4);
    assert.equal(s?.linesParsed, 2);
    assert.equal(s?.tokens.input, 9);
  });

  it('notes tool results from the line head without parsing them', () => {
    const { sessionsDir, dir, index } = setup('tool-result');
    const huge = 'z'.repeat(2 * 1024 * 1024);
    writeSession(path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z')), [
      header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z'), user('go', '2026-11-30T06:57:23.000Z'),
      assistant({ ts: '2026-11-30T06:57:24.000Z', calls: [{ id: 'c9', name: 'bash', arguments: { command: 'cat big' } }] }),
      toolResult('c9', huge, '2026-11-30T06:57:25.000Z'),
    ]);
    const s = scanTranscripts({ harness: 'pi', sessionsDir, index }).transcripts[0]?.summary;
    assert.deepEqual(s?.pending, []);
    assert.equal(s?.last.kind, 'toolResult');
    assert.equal(s?.linesParsed, 3, 'the tool result was not parsed');
  });

  it('counts a directory named like a session, an empty file and a file with no session; forgets deleted files', () => {
    const { sessionsDir, dir, index } = setup('odd-files');
    fs.mkdirSync(path.join(dir, sessionFileName(ID2, '2026-11-30T06:57:22.185Z')));
    fs.writeFileSync(path.join(dir, sessionFileName('01a22b3f-0000-70af-926e-e05b29b6c8c0', '2026-11-30T06:57:22.185Z')), '');
    fs.writeFileSync(path.join(dir, 'notes.jsonl'), '{"hello":1}\n');
    const good = writeSession(path.join(dir, sessionFileName(ID, '2026-11-30T06:57:22.185Z')), [header(ID, '/home/dev/p', '2026-11-30T06:57:22.185Z')]);
    fs.writeFileSync(path.join(dir, '.hidden.jsonl.lock'), 'x');
    const r = scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.deepEqual(r.transcripts.map((t) => t.id), [ID]);
    assert.equal(r.filesSkipped, 3);
    assert.equal(r.filesScanned, 3);
    fs.rmSync(good);
    scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.equal(index.get(good), undefined);
  });

  it('a missing sessions directory is an empty scan, not an error', () => {
    const r = scanTranscripts({ harness: 'pi', sessionsDir: path.join(tmp, 'nope', 'sessions'), index: createMemoryTranscriptIndex() });
    assert.deepEqual([r.transcripts.length, r.filesSkipped, r.errors.length], [0, 0, 0]);
  });
});
