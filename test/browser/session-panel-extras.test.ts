// The session panel's extra facts in a real browser: the session a fork was forked from (a link
// that opens it), how long a dormant session's prompt cache stays warm (also marked in the list),
// and each process of a session open in two at once, with its own status, pane and end button.
// Sessions come from a fake Claude home read by a real daemon.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawnFakeClaude, startBoard, startTicks, type BoardRig } from './browser-kit.ts';
import { assistantLine, metaLine, userLine, writeRegistry, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const PARENT = '40437031-5c17-43a7-8062-c5f8980812c9';
const FORK = '2e0e7aa2-3d62-481c-8a50-166cd0ac192f';
const WARM = '682ae5a7-f5b4-413d-add4-f68eb2ad632e';
const TWICE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
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
  let agents: ChildProcess[] = [];
  before(async () => {
    agents = [spawnFakeClaude(), spawnFakeClaude()];
    await new Promise((r) => setTimeout(r, 100));
    rig = await startBoard({
      prepare: (home) => {
        writeFork(home);
        const [a, b] = agents.map((c) => c.pid as number) as [number, number];
        writeRegistry(home, { pid: a, procStart: startTicks(a), sessionId: TWICE, cwd: CWD, status: 'waiting', waitingFor: 'approve Bash: make', tmux: 'w:@1.%11', startedAt: Date.now() - 120_000 });
        writeRegistry(home, { pid: b, procStart: startTicks(b), sessionId: TWICE, cwd: CWD, status: 'busy', tmux: 'w:@2.%12', startedAt: Date.now() - 30_000 });
        writeTranscript(home, TWICE, [userLine('Open twice', { sessionId: TWICE, cwd: CWD })], CWD);
        // Its last reply 90 s ago: the 5-minute prompt cache is warm for 3m30s more.
        const at = new Date(Date.now() - 90_000).toISOString();
        writeTranscript(home, WARM, [userLine('Warm cache', { sessionId: WARM, cwd: CWD, ts: at }), assistantLine({ id: 'msg_w', sessionId: WARM, cwd: CWD, ts: at })], CWD);
      },
    });
    await rig.page.goto(rig.boardUrl);
  });
  after(async () => {
    await rig?.stop();
    for (const c of agents) c.kill('SIGKILL');
  });

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

  it('a session open in two processes lists each with its status and pane, and ends one of them', async () => {
    const [a, b] = agents.map((c) => c.pid as number) as [number, number];
    await rig.page.locator(`tr[data-key="claude:${TWICE}"]`).click();
    const list = rig.page.locator(`[data-testid="session-panel"][data-key="claude:${TWICE}"]`).getByTestId('processes');
    await list.waitFor({ timeout: 5_000 });
    const first = list.locator(`li[data-pid="${a}"]`);
    assert.equal(await first.getAttribute('data-status'), 'waiting');
    assert.match((await first.textContent()) ?? '', /tmux %11.*approve Bash: make/);
    assert.equal(await list.locator(`li[data-pid="${b}"]`).getAttribute('data-status'), 'working');
    assert.match((await list.locator(`li[data-pid="${b}"]`).textContent()) ?? '', /tmux %12/);
    await first.getByRole('button', { name: 'End…' }).click();
    await first.getByRole('button', { name: 'Yes, end it' }).click();
    await rig.page.getByTestId('action-outcome').filter({ hasText: `Ended process ${a}` }).waitFor({ timeout: 5_000 });
    await list.waitFor({ state: 'detached', timeout: 10_000 });
    const exited = (c: ChildProcess | undefined): boolean => c !== undefined && (c.exitCode !== null || c.signalCode !== null);
    for (let i = 0; i < 50 && !exited(agents[0]); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(exited(agents[0]), 'the chosen process ended');
    assert.ok(!exited(agents[1]), 'the other process runs on');
    assert.equal(await rig.page.locator(`tr[data-key="claude:${TWICE}"]`).getAttribute('data-status'), 'working');
  });
});
