// Issue 17: a first start on a long history shows its progress on the board. The real daemon on a
// Claude home of 640 transcripts (ten batches of 64), its cold index paced (MUSTER_INDEX_PACE_MS: a
// batch per worker every 1.5 s) so the figure can be watched: the top bar says "indexed n / 640
// transcripts" while the list already holds the sessions read so far; at the end the figure is gone
// and all 640 are listed, without a reload. The board's first listing is held back 2 s on its way, so
// batches are indexed (and their sessions sent on the stream) between the listing and its arrival: a
// board that let the older listing replace them lost those sessions until a reload.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, startBoard, type BoardRig } from './browser-kit.ts';
import { assistantLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const N = 640;
const id = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const FIGURE = `document.querySelector('[data-testid="index-progress"]')?.textContent ?? ''`;
const TALLY = `document.querySelector('[data-testid="tally"]')?.textContent ?? ''`;

describe('board: cold index progress in chromium (issue 17)', () => {
  let rig: BoardRig;

  before(async () => {
    rig = await startBoard({
      env: { MUSTER_INDEX_COLD_BYTES: '0', MUSTER_INDEX_PACE_MS: '1500' },
      prepare: (claudeHome) => {
        const ts = new Date(Date.now() - 3_600_000).toISOString();
        for (let i = 0; i < N; i++) {
          writeTranscript(claudeHome, id(i), [
            userLine(`task ${i}`, { sessionId: id(i), ts }),
            assistantLine({ id: `m${i}`, requestId: `r${i}`, input: 100, output: 10, sessionId: id(i), ts }),
          ], `/home/dev/p${i % 7}`);
        }
      },
    });
    let first = true;
    await rig.page.route('**/api/sessions', async (route) => {
      const response = await route.fetch();
      if (first) {
        first = false;
        await new Promise((r) => setTimeout(r, 2000));
      }
      await route.fulfill({ response });
    });
    await rig.page.goto(rig.boardUrl);
  });
  after(async () => {
    await rig?.stop();
  });

  it('the top bar shows "indexed n / 640 transcripts" while the list fills, and nothing once all are read', async () => {
    // Both read in one evaluate, so a figure and the list's count belong to the same moment.
    const sample = `({ figure: ${FIGURE}, tally: ${TALLY} })`;
    const total = (text: string): number => Number(/(\d+) total/.exec(text)?.[1] ?? NaN);
    const seen: { done: number; listed: number }[] = [];
    let shot = false;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { figure, tally } = await rig.page.evaluate(sample) as { figure: string; tally: string };
      if (figure) {
        const m = /^\s*indexed (\d+) \/ (\d+) transcripts$/.exec(figure);
        assert.ok(m, figure);
        assert.equal(Number(m[2]), N);
        seen.push({ done: Number(m[1]), listed: total(tally) });
        if (!shot) shot = !!(await screenshot(rig.page, 'cold-index-progress'));
      } else if (total(tally) === N) break;
      assert.ok(Date.now() < deadline, `not over within 90 s (last: ${JSON.stringify(seen.at(-1))}, tally ${tally})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(seen.some((x) => x.done < N && x.listed < N), `a figure below ${N} beside a list of the sessions read so far (${JSON.stringify(seen.slice(0, 3))})`);
    assert.ok(seen.every((x, i) => i === 0 || x.done >= seen[i - 1]!.done), 'the figure only grows');
    assert.ok(new Set(seen.map((x) => x.done)).size >= 2, `the figure moved on without a reload (${[...new Set(seen.map((x) => x.done))].join(', ')})`);
  });
});
