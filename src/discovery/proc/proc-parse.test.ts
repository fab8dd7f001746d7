import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFakePs, withPathAndZone } from '../../../test/fakes/fake-ps.ts';
import { createPsProc, descendants, parseProcLocks, parsePsTable, parseStat } from './index.ts';
import type { ProcessTable } from './index.ts';

const tail = '4194304 103 0 0 0 0 0 0 0 20 0 1 0 57400 3133440 417 18446744073709551615 0 0 0\n';

describe('parseStat', () => {
  it('reads the fields the port needs', () => {
    const s = parseStat(`9626 (cat) R 9601 9602 3180 34816 9700 ${tail}`);
    assert.deepEqual(s, { pid: 9626, comm: 'cat', state: 'R', flags: 4194304, ppid: 9601, pgrp: 9602, session: 3180, ttyNr: 34816, tpgid: 9700, startTicks: 57400 });
  });

  it('parses a comm holding spaces, parentheses and ") (" from the last paren', () => {
    const s = parseStat(`77 (a) (b ) ( c)) S 1 77 77 0 -1 ${tail}`);
    assert.equal(s?.comm, 'a) (b ) ( c)');
    assert.equal(s?.ppid, 1);
    assert.equal(s?.tpgid, -1);
    assert.equal(s?.startTicks, 57400);
  });

  it('refuses truncated or garbage text', () => {
    assert.equal(parseStat(''), null);
    assert.equal(parseStat('12 (x) S 1 2 3'), null);
    assert.equal(parseStat('no parens at all'), null);
    assert.equal(parseStat(`x (y) S a 1 1 0 -1 ${tail}`), null);
  });
});

describe('parseProcLocks', () => {
  it('parses flock, posix, OFD, lease and blocked waiter lines; drops junk', () => {
    const text = [
      '1: FLOCK  ADVISORY  WRITE 4242 fd:01:1310987 0 EOF',
      '1: -> FLOCK  ADVISORY  WRITE 4243 fd:01:1310987 0 EOF',
      '2: POSIX  ADVISORY  READ 99 08:11:12345 128 128',
      '3: OFDLCK ADVISORY  WRITE -1 00:2a:77 0 EOF',
      '4: LEASE  ACTIVE    READ 5 103:05:18446744073709551 0 EOF',
      'garbage line',
      '',
    ].join('\n');
    const locks = parseProcLocks(text);
    assert.equal(locks.length, 5);
    assert.deepEqual(locks[0], { kind: 'FLOCK', mode: 'ADVISORY', access: 'WRITE', pid: 4242, dev: 'fd:01', inode: 1310987, blocked: false });
    assert.equal(locks[1]?.blocked, true);
    assert.equal(locks[1]?.pid, 4243);
    assert.equal(locks[2]?.access, 'READ');
    assert.equal(locks[3]?.pid, -1);
    assert.equal(locks[4]?.mode, 'ACTIVE');
    assert.equal(locks[4]?.dev, '103:05');
    assert.deepEqual(parseProcLocks(''), []);
  });
});

describe('descendants', () => {
  const tableOf = (edges: [number, number][]): ProcessTable => {
    const children = new Map<number, number[]>();
    for (const [parent, child] of edges) children.set(parent, [...(children.get(parent) ?? []), child]);
    return { byPid: new Map(), children, bootTimeMs: 0, takenAtMs: 0 };
  };

  it('lists every descendant once, breadth first, never the pid itself', () => {
    assert.deepEqual(descendants(tableOf([[1, 2], [2, 3], [2, 4], [4, 5], [9, 10]]), 1), [2, 3, 4, 5]);
    assert.deepEqual(descendants(tableOf([]), 1), []);
  });

  it('terminates on a cycle', () => {
    assert.deepEqual(descendants(tableOf([[1, 2], [2, 3], [3, 1], [3, 2]]), 1), [2, 3]);
    assert.deepEqual(descendants(tableOf([[7, 7]]), 7), []);
  });
});

describe('ps fallback (macOS)', () => {
  // Shaped like macOS `ps`: tty '??' for none, comm is the full executable path (spaces allowed).
  const rows = [
    '    1     0     1     0 Mon Nov 30 07:43:02 2026 ??       /sbin/launchd',
    '  501     1   501   612 Mon Nov 30 07:50:10 2026 ttys001  /Applications/My App.app/Contents/MacOS/my app',
    '  612   501   612   612 Mon Nov 30 07:51:00 2026 ttys001  node',
    'not a row',
  ].join('\n');
  const args = ['    1 /sbin/launchd', '  501 /Applications/My App.app/Contents/MacOS/my app --flag', '  612 node /x/claude --resume abc'].join('\n');
  const boot = Date.parse('Mon Nov 30 07:43:00 2026 UTC'); // ps runs with TZ=UTC

  it('parses the table with start times relative to boot', () => {
    const t = parsePsTable(rows, args, boot, 100);
    assert.equal(t.size, 3);
    const node = t.get(612);
    assert.deepEqual(node?.argv, ['node', '/x/claude', '--resume', 'abc']);
    assert.equal(node?.comm, 'node');
    assert.equal(node?.ppid, 501);
    assert.equal(node?.tpgid, 612);
    assert.equal(node?.cwd, null);
    assert.equal(node?.exe, null);
    assert.equal(node?.startTicks, 8 * 60 * 100);
    assert.equal(t.get(501)?.comm, 'my app');
    assert.equal(t.get(1)?.ttyNr, 0);
    assert.ok((t.get(501)?.ttyNr ?? 0) > 0);
    assert.equal(t.get(501)?.ttyNr, t.get(612)?.ttyNr, 'same tty, same number');
  });

  it('builds a snapshot from injected ps output and degrades locks to null', () => {
    const calls: string[][] = [];
    const proc = createPsProc({
      bootTimeMs: boot,
      run: (file, a) => { calls.push([file, ...a]); return a.includes(ARGS) ? args : rows; },
    });
    const snap = proc.snapshot();
    assert.equal(snap.byPid.size, 3);
    assert.deepEqual(snap.children.get(501), [612]);
    assert.deepEqual(calls, [['ps', '-ax', '-o', 'pid=,ppid=,pgid=,tpgid=,lstart=,tty=,comm='], ['ps', '-ax', '-o', ARGS]]);
    assert.equal(proc.probeLock('/tmp/x'), null);
    assert.deepEqual(proc.lockHolders('/tmp/x'), []);
    assert.deepEqual(proc.locks(), []);
  });

  it('runs ps with LC_ALL=C and TZ=UTC and reads lstart as UTC, whatever the zone here (issue 13, point 20)', () => {
    const ps = createFakePs('Tue Dec  1 12:00:00 2026');
    try {
      const me = withPathAndZone(ps.dir, 'Asia/Tokyo', () => createPsProc({ bootTimeMs: 0 }).read(4242));
      assert.equal(me?.startedAtMs, Date.UTC(2026, 11, 1, 12));
      assert.deepEqual([...new Set(ps.calls())], ['TZ=UTC LC_ALL=C']);
      assert.equal(ps.calls().length, 2, 'the table and the argv');
    } finally {
      ps.cleanup();
    }
  });

  it('does not crash when ps is missing', () => {
    const proc = createPsProc({ bootTimeMs: 0, run: () => { throw Object.assign(new Error('spawn ps ENOENT'), { code: 'ENOENT' }); } });
    assert.equal(proc.snapshot().byPid.size, 0);
    assert.equal(proc.read(1), undefined);
    assert.equal(proc.startTicks(1), null);
  });

  it('reads this very process through the real ps of this host', () => {
    const proc = createPsProc();
    const me = proc.read(process.pid);
    assert.ok(me, 'ps lists the test process');
    assert.equal(me.ppid, process.ppid);
    assert.ok(me.argv.some((a) => a.includes('node')), me.argv.join(' '));
    assert.ok(Math.abs(me.startedAtMs - (Date.now() - process.uptime() * 1000)) < 5000, 'lstart agrees with uptime');
    assert.ok(proc.snapshot().byPid.has(process.pid));
  });
});

const ARGS = 'pid=,args=';
