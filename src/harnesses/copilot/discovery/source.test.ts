import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createCopilotSource } from './source.ts';
import { copySession, eventsUntil, FIXTURES, NATIVE, PRINT_ID, sessionDir, tempHome, touchInuse, TUI_ID } from './copilot-fixtures.test-support.ts';

const NEW_ID = '22222222-3333-4444-8555-666666666666';
const clock = () => Date.parse('2026-12-01T12:51:00.000Z');

describe('copilot source over real session folders', () => {
  it('lists dormant sessions with title, cwd, model, tokens, unknown cost and the resume command', async () => {
    const { home, cleanup } = tempHome();
    try {
      copySession(home, PRINT_ID);
      copySession(home, TUI_ID);
      const src = createCopilotSource({ home, proc: createFakeProc(), clock });
      const list = (await src.list()).sort((a, b) => a.id.localeCompare(b.id));
      assert.deepEqual(list.map((s) => [s.id, s.title, s.live, s.status, s.model, s.tokens.input, s.tokens.output, s.costUsd]), [
        [PRINT_ID, 'RUNCMD: echo hi > q.txt', false, 'ended', 'fake-model', 200, 20, null],
        [TUI_ID, 'RUNCMD: echo perm > p.txt', false, 'ended', 'fake-model', 300, 30, null],
      ]);
      const s = list[1]!;
      assert.equal(s.cwd, '/tmp/cop-play/h2/proj');
      assert.equal(s.startedAt, '2026-12-01T12:50:02.653Z');
      assert.equal(s.lastActivityAt, '2026-12-01T12:50:45.173Z');
      assert.deepEqual(s.resumeArgv, ['copilot', `--resume=${TUI_ID}`]);
      assert.equal(s.pid, null);
      assert.equal(s.canEnd, false);
      assert.deepEqual(src.diagnostics().errors, []);
    } finally {
      cleanup();
    }
  });

  it('a live session waiting on its permission prompt, then working once approved; ended by SIGTERM to the native pid', async () => {
    const { home, cleanup } = tempHome();
    try {
      const dir = copySession(home, TUI_ID, (l) => l.includes('"type":"permission.requested"'));
      const { hold } = touchInuse(dir, 4242);
      const proc = createFakeProc({ processes: [{ pid: 4242, argv: [NATIVE], exe: NATIVE, startedAtMs: Date.parse('2026-12-01T12:50:02.000Z') }, { pid: 4241, argv: ['node', 'copilot'], exe: '/usr/bin/node' }], locks: [{ path: hold, pids: [4242] }] });
      writeFileSync(join(home, 'open-sessions-state.json'), JSON.stringify({ [TUI_ID]: { schemaVersion: 1, openedAt: '2026-12-01T12:50:02.949Z', refreshedAt: '2026-12-01T12:50:11.584Z', working: true } }));
      const index = createMemoryTranscriptIndex();
      const src = createCopilotSource({ home, proc, index, clock });
      const waiting = await src.get(TUI_ID);
      assert.equal(waiting?.live, true);
      assert.equal(waiting?.pid, 4242);
      assert.equal(waiting?.status, 'waiting');
      assert.equal(waiting?.waitingFor, 'permission: shell (echo perm > p.txt)');
      // Copilot appends the answer: the index resumes at its offset instead of re-reading the file.
      const offset = index.get(join(dir, 'events.jsonl'))?.offset ?? 0;
      const full = eventsUntil(TUI_ID, (l) => l.includes('"type":"permission.completed"'));
      appendFileSync(join(dir, 'events.jsonl'), Buffer.from(full).subarray(offset));
      const working = await src.get(TUI_ID);
      assert.equal(working?.status, 'working');
      assert.equal(src.diagnostics().linesParsed, 0, 'get() leaves the full listing\'s counters alone');
      assert.deepEqual(await src.end(TUI_ID), { outcome: 'ended', signal: 'SIGTERM', pid: 4242 });
      assert.deepEqual(proc.signals.map((x) => [x.pid, x.signal]), [[4242, 'SIGTERM']], 'never the loader');
      assert.equal((await src.end(TUI_ID)).outcome, 'not_running');
    } finally {
      cleanup();
    }
  });

  it('a new session open in a process is listed live and idle before its first prompt writes events.jsonl', async () => {
    const { home, cleanup } = tempHome();
    try {
      const dir = sessionDir(home, NEW_ID);
      mkdirSync(dir);
      writeFileSync(join(dir, 'workspace.yaml'), `id: ${NEW_ID}\ncwd: /home/dev/p\nclient_name: github/cli\nuser_named: false\nsummary_count: 0\n`);
      const proc = createFakeProc({ processes: [{ pid: 99, argv: [NATIVE, '--session-id', NEW_ID], exe: NATIVE }] });
      proc.holdLock(touchInuse(dir, 99).hold, 99);
      const src = createCopilotSource({ home, proc, clock });
      const [s] = await src.list();
      assert.equal(s?.id, NEW_ID);
      assert.equal(s?.live, true);
      assert.equal(s?.status, 'idle');
      assert.equal(s?.cwd, '/home/dev/p');
      assert.equal(s?.title, '');
      proc.remove(99); // killed before its first prompt: a folder with nothing to show
      assert.deepEqual(await src.list(), []);
    } finally {
      cleanup();
    }
  });

  it('a /fork: the fork names its parent and counts only its own turn', async () => {
    const { home, cleanup } = tempHome();
    try {
      const PARENT = '50ae97d4-a967-463e-98c2-ed4b76fbcbc1';
      const FORK = 'dd768907-a6a8-438a-abbd-48cef02ae783';
      copySession(home, PARENT);
      copySession(home, FORK);
      const src = createCopilotSource({ home, proc: createFakeProc() });
      const byId = new Map((await src.list()).map((s) => [s.id, s]));
      assert.deepEqual([byId.get(FORK)?.title, byId.get(FORK)?.forkedFrom, byId.get(FORK)?.tokens.output], ['before fork (fork)', PARENT, 10]);
      assert.deepEqual([byId.get(PARENT)?.forkedFrom, byId.get(PARENT)?.tokens.output], [null, 10]);
    } finally {
      cleanup();
    }
  });

  it('tail: the last messages as text, the tool call and its result included', async () => {
    const { home, cleanup } = tempHome();
    try {
      copySession(home, PRINT_ID);
      const src = createCopilotSource({ home, proc: createFakeProc() });
      const tail = await src.tail!(PRINT_ID, 10);
      assert.deepEqual(tail.map((m) => [m.role, m.text]), [
        ['user', 'RUNCMD: echo hi > q.txt'],
        ['tool', '→ bash: echo hi > q.txt'],
        ['tool', '<shellId: 0 completed with exit code 0>'],
        ['assistant', 'tool done'],
      ]);
      assert.deepEqual(await src.tail!('not-an-id', 5), []);
    } finally {
      cleanup();
    }
  });

  it('a FIFO named events.jsonl and a folder linked from outside the home are skipped and counted, never read', async () => {
    const { home, cleanup } = tempHome();
    const outside = tempHome('muster-copilot-outside-');
    try {
      const dir = copySession(home, PRINT_ID);
      rmSync(join(dir, 'events.jsonl'));
      execFileSync('mkfifo', [join(dir, 'events.jsonl')]);
      copySession(outside.home, TUI_ID);
      symlinkSync(sessionDir(outside.home, TUI_ID), sessionDir(home, TUI_ID));
      const src = createCopilotSource({ home, proc: createFakeProc() });
      assert.deepEqual(await src.list(), []);
      const d = src.diagnostics();
      assert.equal(d.notRegularFiles, 1);
      assert.equal(d.filesSkipped, 2);
      assert.ok(d.errors.some((e) => e.includes('leads outside')), d.errors.join('\n'));
    } finally {
      cleanup();
      outside.cleanup();
    }
  });

  it('refuses ids of the wrong shape everywhere', async () => {
    const src = createCopilotSource({ home: FIXTURES, proc: createFakeProc() });
    for (const bad of ['../x', `${TUI_ID}\n`, 'ses_abc']) {
      assert.equal(src.isValidId(bad), false);
      assert.equal(await src.get(bad), undefined);
      assert.equal(src.resumeArgv(bad), null);
    }
    assert.match(readFileSync(join(FIXTURES, 'session-state', TUI_ID, 'workspace.yaml'), 'utf8'), /^id: /);
  });
});
