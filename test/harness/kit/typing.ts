/** Typing into a harness's TUI in a tmux pane until the fake model has seen the text. */
import assert from 'node:assert/strict';
import type { FakeModel } from '../../fakes/fake-model/index.ts';
import type { Tmux } from './tmux.ts';

/** Types `text` and presses Enter until the fake model has received it (pi's and omp's editors may swallow one Enter). */
export async function typeUntilSent(tmux: Tmux, model: FakeModel, paneId: string, text: string, tries = 3, perTryMs = 5_000): Promise<void> {
  await tmux.sendKeys(paneId, text, { literal: true });
  await new Promise((r) => setTimeout(r, 300));
  const mark = model.requests.length;
  const escaped = JSON.stringify(text).slice(1, -1); // as it appears inside the JSON request body
  const seen = () => model.requests.slice(mark).some((r) => JSON.stringify(r.body).includes(escaped));
  for (let attempt = 0; attempt < tries && !seen(); attempt++) {
    await tmux.sendKeys(paneId, 'Enter');
    const deadline = Date.now() + perTryMs;
    while (!seen() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }
  if (!seen()) assert.fail(`the TUI did not send "${text}" to the model\n--- pane ---\n${await tmux.capture(paneId)}`);
}
