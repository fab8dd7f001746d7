// The session panel's extra facts in a real browser: the session a fork was forked from (a link
// that opens it), how long a dormant session's prompt cache stays warm (also marked in the list).
// Sessions come from a fake Claude home read by a real daemon.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBoard, type BoardRig } from './browser-kit.ts';
import { assistantLine, metaLine, userLine, writeTranscript } from '../../src/sources/claude/claude-fixtures.ts';

const PARENT = '40437031-5c17-43a7-8062-c5f8980812c9';
const FORK = '2e0e7aa2-3d62-481c-8a50-166cd0ac192f';
const WARM = '682ae5a7-f5b4-413d-add4-f68eb2ad632e';
const CWD = '/home/dev/muster';

function writeFork(home: string): void {
  const at = (s: number): string => new Date(Date.now() - 3_600_000 + s * 1000).toISOString();
  writeTranscript(home, PARENT, [
    metaLine('queue-operation', { operation: 'enqueue', timestamp: at(0) }, PARENT),
    userLine('Plan the release', { sessionId: PARENT, cwd: CWD, ts: at(1) }),
    assistantLine({ id: 'msg_p1', requestId: 'req_p1', sessionId: PARENT, cwd: CWD, ts: at(2) }),
    metaLine('cost-state', { totalCostUSD: 0.0885, startTime: 1796126126336 }, PARENT),
  ], CWD);
  writeTranscript(home, FORK, [
    userLine('Plan the release', { sessionId: FORK, cwd: CWD, ts: at(1) }),
    assistantLine({ id: 'msg_p1', requestId: 'req_p1', sessionId: FORK, cwd: CWD, ts: at(2), requestSessionId: PARENT }),
    userLine('Try the other branch', { sessionId: FORK, cwd: CWD, ts: at(10) }),
    assistantLine({ id: 'msg_f1', requestId: 'req_f1', sessionId: FORK, cwd: CWD, ts: at(11) }),
    metaLine('cost-state', { totalCostUSD: 0.1125, startTime: 1796126126336 }, FORK),
  ], CWD);
}

describe('session panel extras in chromium', () => {
  let rig: BoardRig;
  before(async () => {
    rig = await startBoard({
      prepare: (home) => {
        writeFork(home);
        // Its last reply 90 s ago: the 5-minute prompt cache is warm for 3m30s more.
        const at = new Date(Date.now() - 90_000).toISOString();
        writeTranscript(home, WARM, [userLine('Warm cache', { sessionId: WARM, cwd: CWD, ts: at }), assistantLine({ id: 'msg_w', sessionId: WARM, cwd: CWD, ts: at })], CWD);
      },
    });
    await rig.page.goto(rig.boardUrl);
  });
  after(async () => { await rig?.stop(); });

  it('a fork names its parent, with a link that opens the parent', async () => {
    await rig.page.locator(`tr[data-key="claude:${FORK}"]`).click();
    const panel = rig.page.getByTestId('session-panel');
    const from = panel.getByTestId('forked-from');
    await from.waitFor({ timeout: 10_000 });
    assert.match((await from.textContent()) ?? '', /40437031/);
    await from.getByRole('button').click();
    await rig.page.locator(`[data-testid="session-panel"][data-key="claude:${PARENT}"]`).waitFor({ timeout: 5_000 });
    assert.equal(await rig.page.getByTestId('forked-from').count(), 0, 'the parent was not forked');
  });

  it('a dormant session with a warm prompt cache is marked in the list; the panel says for how long', async () => {
    const row = rig.page.locator(`tr[data-key="claude:${WARM}"]`);
    await row.waitFor({ timeout: 10_000 });
    assert.match((await row.getByTestId('cache-warm').textContent()) ?? '', /♨ 3m/);
    assert.equal(await rig.page.locator(`tr[data-key="claude:${FORK}"]`).getByTestId('cache-warm').count(), 0, 'an hour-old cache is cold');
    await row.click();
    const cache = rig.page.locator(`[data-testid="session-panel"][data-key="claude:${WARM}"]`).getByTestId('cache');
    assert.equal(await cache.textContent(), 'warm for 3m');
    await rig.page.locator(`tr[data-key="claude:${FORK}"]`).click();
    assert.match((await rig.page.locator(`[data-testid="session-panel"][data-key="claude:${FORK}"]`).getByTestId('cache').textContent()) ?? '', /^expired 5\dm ago$/);
  });
});
