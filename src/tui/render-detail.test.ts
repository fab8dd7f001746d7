/** The detail pane under the sessions list: what a row has no room for. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sessionDetail } from './render-sessions.ts';
import { initialState } from './types.ts';
import { createStyler, textWidth } from './ansi.ts';
import { session, uuid } from './tui-fixtures.test-support.ts';
import type { Session } from '../core/session.ts';

const now = Date.parse('2026-01-01T01:00:00.000Z');
const style = createStyler(false);
// eslint-disable-next-line no-control-regex -- stripping SGR to measure what the terminal shows
const plain = (l: string): string => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const detail = (s: Session, height = 5, columns = 100): string[] => sessionDetail(initialState({ connection: 'live' }), s, height, columns, now, style).map(plain);

describe('session detail', () => {
  it('names the session a fork was forked from', () => {
    const lines = detail(session(2, { forkedFrom: uuid(1) }));
    assert.match(lines.join('\n'), /forked from 00000000/);
    assert.doesNotMatch(detail(session(1)).join('\n'), /forked/);
    for (const l of lines) assert.equal(textWidth(l), 100);
  });

  it('shows how long the prompt cache stays warm, or since when it expired', () => {
    const warm = detail(session(3, { live: false, cacheExpiresAt: new Date(now + 3 * 60_000 + 10_000).toISOString() })).join('\n');
    assert.match(warm, /cache warm for 3m/);
    const cold = detail(session(3, { live: false, cacheExpiresAt: new Date(now - 12 * 60_000).toISOString() })).join('\n');
    assert.match(cold, /cache expired 12m ago/);
    assert.doesNotMatch(detail(session(3, { cacheExpiresAt: null })).join('\n'), /cache/);
  });

  it('a session open in two processes lists each with its own status and pane', () => {
    const proc = (pid: number, status: 'waiting' | 'working', pane: string, waitingFor: string | null = null) =>
      ({ pid, status, waitingFor, statusSince: null, pane: { manager: 'tmux', id: pane }, startedAt: null });
    const s = session(4, { pids: [5101, 5102], status: 'waiting', waitingFor: 'approve Bash', processes: [proc(5101, 'waiting', '%11', 'approve Bash'), proc(5102, 'working', '%12')] });
    const text = detail(s, 5, 160).join('\n');
    assert.match(text, /2 processes: pid 5101 waiting \(tmux %11: approve Bash\) · pid 5102 working \(tmux %12\)/);
    assert.doesNotMatch(detail(session(5, { processes: [proc(5105, 'working', '%1')] })).join('\n'), /processes/, 'one process: nothing more to say');
  });
});
