// Transcript search on the board in chromium (issue 18): type a query in the search box, open a hit,
// and the transcript panel opens scrolled to that message (marked); a transcript holding <script>,
// an <img onerror> and javascript: links renders inert (no script runs, no such link is clickable);
// long tool output is collapsed; any session's panel opens its whole transcript.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBoard, type BoardRig } from './browser-kit.ts';
import { assistantLine, toolResultLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const ID = '40437031-5c17-43a7-8062-c5f8980812c9';
const CWD = '/home/dev/muster';

function reply(id: string, text: string): string {
  const line = JSON.parse(assistantLine({ id, sessionId: ID, cwd: CWD })) as { message: { content: unknown[] } };
  line.message.content = [{ type: 'text', text }];
  return JSON.stringify(line);
}

describe('transcript search on the board', () => {
  let rig: BoardRig;
  before(async () => {
    rig = await startBoard({
      prepare: (home) => {
        const filler = Array.from({ length: 60 }, (_, i) => userLine(`filler message number ${i} about nothing`, { sessionId: ID, cwd: CWD }));
        writeTranscript(home, ID, [
          userLine('Please fix the flaky login test', { sessionId: ID, cwd: CWD }),
          ...filler,
          reply('m1', 'Fixed the **pelican** bug. <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> [click me](javascript:window.__pwned=3) and [docs](https://example.com/docs)'),
          toolResultLine('z'.repeat(5000)),
          userLine('thanks', { sessionId: ID, cwd: CWD }),
        ], CWD);
      },
    });
    await rig.page.goto(rig.boardUrl);
  });
  after(async () => {
    await rig?.stop();
  });

  it('a query lists hits; opening one scrolls the transcript panel to that message, rendered inert', async () => {
    const { page } = rig;
    await page.locator(`tr[data-key="claude:${ID}"]`).waitFor({ timeout: 10_000 });
    await page.getByTestId('transcript-search').fill('pelican');
    await page.getByTestId('transcript-search').press('Enter');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor({ timeout: 5_000 }).catch(async (e: Error) => {
      throw new Error(`${e.message}\n${(await page.locator('main').innerHTML()).slice(0, 1200)}`);
    });
    assert.equal(await page.getByTestId('search-results').locator('mark').first().textContent(), 'pelican');
    const position = Number(await hit.getAttribute('data-position'));
    assert.equal(position, 61, 'the reply after the first prompt and 60 fillers');
    await hit.click();
    const marked = page.getByTestId('transcript-hit');
    await marked.waitFor({ timeout: 5_000 });
    assert.equal(Number(await marked.getAttribute('data-position')), position);
    // Scrolled to it: the hit is inside the panel's visible box.
    const inView = await marked.evaluate((el) => {
      const panel = el.closest('[data-testid="transcript-panel"]')!;
      const a = el.getBoundingClientRect();
      const b = panel.getBoundingClientRect();
      return a.top >= b.top && a.bottom <= b.bottom + 1 && panel.scrollTop > 0;
    });
    assert.ok(inView, 'the panel scrolled to the hit');
    // Inert: the script and the handler never ran, the javascript: link is not a link, the https one is.
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    assert.equal(await marked.locator('script, img').count(), 0);
    assert.equal(await marked.locator('a[href^="javascript"]').count(), 0);
    assert.match((await marked.textContent()) ?? '', /<script>window.__pwned = 1<\/script>/, 'the markup is shown as text');
    assert.equal(await marked.locator('a').getAttribute('href'), 'https://example.com/docs');
    assert.equal(await marked.locator('strong').textContent(), 'pelican');
    await marked.locator('.inert-link').click();
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    // The long tool output after it is collapsed.
    const output = page.locator('[data-testid="transcript"] li[data-position="62"] details');
    assert.equal(await output.getAttribute('open'), null);
  });

  it('a bad query says what to fix; any session opens its whole transcript from its panel', async () => {
    const { page } = rig;
    await page.getByTestId('transcript-search').fill('"open');
    await page.getByTestId('transcript-search').press('Enter');
    assert.match((await page.getByTestId('search-error').textContent({ timeout: 5_000 })) ?? '', /never closed/);
    await page.getByRole('button', { name: 'close search' }).click();
    await page.keyboard.press('Escape');
    await page.locator(`tr[data-key="claude:${ID}"]`).click();
    await page.getByTestId('read-transcript').click();
    const first = page.locator('[data-testid="transcript"] li').first();
    await first.waitFor({ timeout: 5_000 });
    assert.equal(await first.getAttribute('data-position'), '0');
    assert.match((await first.textContent()) ?? '', /flaky login/);
  });
});
