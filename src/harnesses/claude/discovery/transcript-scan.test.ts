import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import type { TranscriptIndex } from '../../../discovery/contract.ts';
import { scanTranscripts } from './transcript-scan.ts';
import type { TranscriptScanCounters } from './transcript-scan.ts';
import { assistantLine, SID, SID2, tempHome, userLine, writeTranscript } from './claude-fixtures.test-support.ts';
import { cwdToSlug } from './slug.ts';

const counters = (): TranscriptScanCounters => ({ filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] });

describe('claude transcript scan', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });
  const setup = (): { home: string; projects: string; index: TranscriptIndex } => {
    const home = tempHome();
    homes.push(home);
    return { home, projects: path.join(home, 'projects'), index: createMemoryTranscriptIndex() };
  };

  it('reads only new bytes on a later scan, and nothing when unchanged', () => {
    const { home, projects, index } = setup();
    const file = writeTranscript(home, SID, [userLine('first'), assistantLine({ id: 'm1', input: 10, output: 1 })]);
    const c1 = counters();
    const [t1] = scanTranscripts({ projectsDir: projects, index }, c1);
    assert.equal(c1.linesParsed, 2);
    assert.equal(t1?.summary.usage.tokens.input, 10);

    const c2 = counters();
    scanTranscripts({ projectsDir: projects, index }, c2);
    assert.equal(c2.linesParsed, 0, 'unchanged file is not read');

    fs.appendFileSync(file, assistantLine({ id: 'm2', input: 5, output: 1 }) + '\n');
    const c3 = counters();
    const [t3] = scanTranscripts({ projectsDir: projects, index }, c3);
    assert.equal(c3.linesParsed, 1, 'only the appended line');
    assert.equal(t3?.summary.usage.tokens.input, 15);
    assert.equal(t3?.summary.firstPrompt, 'first', 'earlier state kept');
  });

  it('a truncated last line is not consumed until it is complete', () => {
    const { home, projects, index } = setup();
    const file = writeTranscript(home, SID, [userLine('first')]);
    const line = assistantLine({ id: 'm1', input: 7 });
    fs.appendFileSync(file, line.slice(0, 30));
    const [t1] = scanTranscripts({ projectsDir: projects, index }, counters());
    assert.equal(t1?.summary.usage.tokens.input, 0);
    fs.appendFileSync(file, line.slice(30) + '\n');
    const [t2] = scanTranscripts({ projectsDir: projects, index }, counters());
    assert.equal(t2?.summary.usage.tokens.input, 7);
  });

  it('malformed, binary and invalid UTF-8 lines are skipped and counted', () => {
    const { home, projects, index } = setup();
    const file = writeTranscript(home, SID, [userLine('ok'), '{"type":"user",', 'not json at all']);
    fs.appendFileSync(file, Buffer.concat([Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from(assistantLine({ id: 'm1', input: 3 }) + '\n')]));
    const c = counters();
    const [t] = scanTranscripts({ projectsDir: projects, index }, c);
    assert.equal(c.linesSkipped, 3);
    assert.equal(c.linesParsed, 2);
    assert.equal(t?.summary.usage.tokens.input, 3);
  });

  it('an over-long line is skipped without being parsed', () => {
    const { home, projects, index } = setup();
    const big = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(200_000) } });
    writeTranscript(home, SID, [big, userLine('after')]);
    const c = counters();
    const [t] = scanTranscripts({ projectsDir: projects, index, maxLineBytes: 100_000 }, c);
    assert.equal(c.linesSkipped, 1);
    assert.equal(t?.summary.firstPrompt, 'after');
  });

  it('a rewritten (shrunk) file is read again from 0', () => {
    const { home, projects, index } = setup();
    writeTranscript(home, SID, [userLine('one'), assistantLine({ id: 'm1', input: 50 }), assistantLine({ id: 'm2', input: 50 })]);
    scanTranscripts({ projectsDir: projects, index }, counters());
    writeTranscript(home, SID, [userLine('two'), assistantLine({ id: 'm3', input: 4 })]);
    const [t] = scanTranscripts({ projectsDir: projects, index }, counters());
    assert.equal(t?.summary.usage.tokens.input, 4);
    assert.equal(t?.summary.firstPrompt, 'two');
  });

  it('a directory named like a transcript, stray files and weird cwd slugs do not stop the scan', () => {
    const { home, projects, index } = setup();
    const weird = '/home/dev/weird/my_proj.v2 x';
    assert.equal(cwdToSlug(weird), '-home-dev-weird-my-proj-v2-x');
    writeTranscript(home, SID, [userLine('weird one', { cwd: weird })], weird);
    fs.mkdirSync(path.join(projects, '-home-dev-project', `${SID2}.jsonl`), { recursive: true });
    fs.writeFileSync(path.join(projects, '-home-dev-project', 'notes.jsonl'), 'x\n');
    fs.writeFileSync(path.join(projects, 'stray-file'), 'x');
    fs.mkdirSync(path.join(projects, '-home-dev-project', 'memory'));
    const c = counters();
    const ts = scanTranscripts({ projectsDir: projects, index }, c);
    assert.deepEqual(ts.map((t) => [t.id, t.summary.cwd]), [[SID, weird]]);
    assert.equal(c.filesSkipped, 1, 'the directory');
  });

  it('forgets index entries of transcripts that are gone', () => {
    const { home, projects, index } = setup();
    const file = writeTranscript(home, SID, [userLine('x')]);
    scanTranscripts({ projectsDir: projects, index }, counters());
    assert.ok(index.get(file));
    fs.rmSync(file);
    scanTranscripts({ projectsDir: projects, index }, counters());
    assert.equal(index.get(file), undefined);
  });

  it('an unreadable transcript (a dangling link) is counted, the others still read', () => {
    // Runs as root in CI, where file modes do not stop reads; a dangling link fails the same way.
    const { home, projects, index } = setup();
    const dir = path.join(projects, '-home-dev-project');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(home, 'missing-target'), path.join(dir, `${SID}.jsonl`));
    writeTranscript(home, SID2, [userLine('y')], '/other');
    const c = counters();
    const ts = scanTranscripts({ projectsDir: projects, index }, c);
    assert.deepEqual(ts.map((t) => t.id), [SID2]);
    assert.equal(c.filesSkipped, 1);
    assert.equal(c.errors.length, 1);
  });

  it('works through an index that stores summaries as JSON (the SQLite store)', () => {
    const { home, projects } = setup();
    const rows = new Map<string, string>();
    const index: TranscriptIndex = {
      get: (p) => { const r = rows.get(p); return r === undefined ? undefined : JSON.parse(r); },
      put: (e) => void rows.set(e.path, JSON.stringify(e)),
      remove: (p) => void rows.delete(p),
      list: () => [...rows.values()].map((r) => JSON.parse(r)),
    };
    const file = writeTranscript(home, SID, [userLine('first'), assistantLine({ id: 'm1', input: 10 })]);
    scanTranscripts({ projectsDir: projects, index }, counters());
    fs.appendFileSync(file, assistantLine({ id: 'm1', input: 10 }) + '\n' + assistantLine({ id: 'm2', input: 1 }) + '\n');
    const c = counters();
    const [t] = scanTranscripts({ projectsDir: projects, index }, c);
    assert.equal(c.linesParsed, 2, 'resumed from the stored offset');
    assert.equal(t?.summary.usage.tokens.input, 11, 'the repeated message stays counted once across runs');
    assert.equal(t?.summary.firstPrompt, 'first');
  });
});
