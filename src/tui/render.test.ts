import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderFrame } from './render.ts';
import { applySnapshot } from './state.ts';
import { handleKey } from './keys.ts';
import { initialState, type TuiState } from './types.ts';
import { textWidth } from './ansi.ts';
import { goal, page, session, uuid } from './tui-fixtures.test-support.ts';

// eslint-disable-next-line no-control-regex -- stripping SGR to measure what the terminal shows
const plain = (l: string) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const now = Date.parse('2026-01-01T01:00:00.000Z');

function world(n = 30): TuiState {
  const sessions = Array.from({ length: n }, (_, i) =>
    session(i + 1, {
      status: (['working', 'idle', 'waiting'] as const)[i % 3]!, waitingFor: i % 3 === 2 ? `permission: Bash(npm test ${i})` : null,
      title: i === 4 ? 'タイトル 🚀 with a very long title that will certainly not fit in eighty columns at all' : `session ${i + 1}`,
      statusSince: new Date(now - (i + 1) * 60_000).toISOString(),
    }),
  );
  sessions.push(session(99, { live: false, status: 'ended', pid: null, title: 'the ended one' }));
  return applySnapshot(initialState({ connection: 'live' }), { sessions, pages: [page(1, { question: 'Merge PR #12?\nCI is green.', choices: ['merge', 'wait'] })], goals: [goal(uuid(1))] });
}

describe('render', () => {
  for (const [columns, rows] of [[80, 24], [200, 50], [40, 10]] as const) {
    it(`every line is exactly ${columns} columns, ${rows} lines (sessions, pages, help, prompt)`, () => {
      const states = [world(), { ...world(), view: 'pages' as const }, handleKey(world(), { name: '', ch: '?', ctrl: false, meta: false, shift: false }, { now, pageSize: 5 }).state, handleKey(world(), { name: 'x', ch: 'x', ctrl: false, meta: false, shift: false }, { now, pageSize: 5 }).state];
      for (const s of states) {
        const f = renderFrame(s, { columns, rows, now, color: true });
        assert.equal(f.lines.length, rows);
        for (const l of f.lines) assert.equal(textWidth(plain(l)), columns, JSON.stringify(plain(l)));
      }
    });
  }

  it('waiting first with reason and duration, then idle, working, recently ended', () => {
    const text = renderFrame(world(), { columns: 120, rows: 60, now, color: false }).lines.map(plain);
    const heads = text.filter((l) => l.startsWith('── ')).map((l) => l.split(' (')[0]);
    assert.deepEqual(heads, ['── WAITING', '── IDLE', '── WORKING', '── RECENTLY ENDED']);
    const first = text.findIndex((l) => l.includes('◆ wait'));
    assert.match(text[first]!, /30m/, 'the longest wait (session 30, 30 minutes) is on top');
    assert.match(text[first + 1]!, /↳ permission: Bash\(npm test 29\)/);
    assert.match(text.find((l) => l.includes('session 1 '))!, /goal 3\/20/);
  });

  it('a session without a known directory says so in its details (issue 13, point 16)', () => {
    const s = applySnapshot(initialState({ connection: 'live' }), { sessions: [session(1, { cwd: null, repoRoot: null })], pages: [], goals: [] });
    const text = renderFrame(s, { columns: 100, rows: 30, now, color: false }).lines.map(plain).join('\n');
    assert.match(text, /directory unknown/);
  });

  it('a live session nothing reports on shows its status as unknown, not as idle', () => {
    const s = applySnapshot(initialState({ connection: 'live' }), { sessions: [session(1, { status: 'idle', statusKnown: false, title: 'quiet one' })], pages: [], goals: [] });
    const text = renderFrame(s, { columns: 100, rows: 30, now, color: false }).lines.map(plain);
    assert.match(text.find((l) => l.includes('quiet one'))!, /◌ \?/);
    assert.ok(!text.some((l) => l.includes('○ idle')));
    assert.match(text.join('\n'), /status unknown/);
  });

  it('NO_COLOR frames carry no colour codes; the selection stays visible without colour', () => {
    const lines = renderFrame(world(), { columns: 80, rows: 24, now, color: false }).lines;
    assert.ok(!lines.some((l) => /\[(3\d)(;|m)/.test(l.replaceAll('\u001b', ''))), 'no 3x colour parameter');
    assert.ok(lines.some((l) => l.includes('\u001b[1m')), 'bold survives');
    assert.ok(lines.some((l) => plain(l).startsWith('› ')));
  });

  it('keeps the selection in view when it moves past the bottom', () => {
    let s = world(60);
    for (let i = 0; i < 50; i++) s = handleKey(s, { name: 'down', ch: null, ctrl: false, meta: false, shift: false }, { now, pageSize: 5 }).state;
    const f = renderFrame(s, { columns: 80, rows: 24, now, color: false });
    assert.ok(f.top.sessions > 0);
    assert.ok(f.lines.map(plain).some((l) => l.startsWith('› ')));
  });

  it('the pages view shows the whole question, the numbered choices and the keys', () => {
    const text = renderFrame({ ...world(), view: 'pages' }, { columns: 80, rows: 24, now, color: false }).lines.map(plain).join('\n');
    assert.match(text, /Merge PR #12\?/);
    assert.match(text, /CI is green\./);
    assert.match(text, /1\) merge {3}2\) wait/);
    assert.match(text, /1-2: pick/);
  });
});

describe('render: a cold index', () => {
  it('the status line carries "indexed n / N transcripts" at its right while a first start reads', () => {
    const s = { ...world(3), indexing: 'indexed 312 / 800 transcripts' };
    const last = plain(renderFrame(s, { columns: 120, rows: 24, now, color: false }).lines.at(-1) ?? '');
    assert.match(last, /indexed 312 \/ 800 transcripts\s*$/);
    const none = plain(renderFrame(world(3), { columns: 120, rows: 24, now, color: false }).lines.at(-1) ?? '');
    assert.doesNotMatch(none, /indexed/);
  });
});
