// Issue 7, Acceptance: the MCP Inspector CLI lists and calls the tools against a running daemon,
// passing the token with --header. The inspector is fetched from npm at test time (pinned version).
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { tempHome } from './kit.ts';
import { startPagerDaemon } from './pager-kit.ts';

/** Pinned: the CLI flags (--header, --tool-args-json, --format json → `{ result }`) are those of this version. */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['-y', INSPECTOR, '--cli', ...args], { timeout: 150_000, maxBuffer: 8 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

it('MCP Inspector CLI: tools/list and tools/call against the running daemon, with the Bearer token', { timeout: 320_000 }, async () => {
  const t = tempHome('muster-e2e-pager-insp-');
  const d = await startPagerDaemon(t.home, { askWaitSeconds: 1 });
  after(async () => {
    await d.stop();
    t.cleanup();
  });
  const common = [d.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${d.token}`, '--format', 'json'];
  const list = await inspector([...common, '--method', 'tools/list']);
  assert.equal(list.code, 0, list.stderr);
  const tools = (JSON.parse(list.stdout) as { result: { tools: { name: string }[] } }).result.tools.map((x) => x.name).sort();
  assert.deepEqual(tools, ['ask_operator', 'await_answer', 'cancel_page', 'notify_operator', 'search_sessions']);

  const call = await inspector([...common, '--method', 'tools/call', '--tool-name', 'notify_operator', '--tool-args-json', '{"message":"hello from the inspector","level":"info"}']);
  assert.equal(call.code, 0, call.stderr);
  const { result } = JSON.parse(call.stdout) as { result: { structuredContent?: { status: string; pageId: string } } };
  assert.equal(result.structuredContent?.status, 'sent');
  const page = await d.api('GET', `/pages/${result.structuredContent?.pageId}`);
  assert.equal((page.json.page as { question: string }).question, 'hello from the inspector');

  const noToken = await inspector([d.mcpUrl, '--transport', 'http', '--format', 'json', '--method', 'tools/list']);
  assert.notEqual(noToken.code, 0, 'without the token the daemon refuses');
});
