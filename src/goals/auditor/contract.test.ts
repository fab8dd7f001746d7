// One contract suite for every auditor provider: strict verdicts, failures returned (never thrown),
// bounded time. HTTP providers talk to the project's fake model server; CLI providers to a fake runner
// that answers like `claude -p --output-format json` / `codex exec --json` (the real binaries run in
// test/harness/goals.test.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, type FakeModel, type Reply } from '../../../test/fakes/fake-model/index.ts';
import { createAnthropicAuditor, createOpenAiAuditor } from './http-auditors.ts';
import { createCliAuditor } from './cli-auditors.ts';
import { claude } from '../../harnesses/claude/index.ts';
import { codex } from '../../harnesses/codex/index.ts';
import { pi } from '../../harnesses/pi/index.ts';
import { omp } from '../../harnesses/omp/index.ts';
import { opencode } from '../../harnesses/opencode/index.ts';
import { gemini } from '../../harnesses/gemini/index.ts';
import { auditorHarnesses } from '../../harnesses/ports.ts';
import { createAuditorFactory } from './factory.ts';
import type { Auditor, CommandRunner } from './port.ts';

const REQ = { objective: 'ship it', report: 'I shipped it.', timeoutMs: 2000 };
const GOOD = JSON.stringify({ allDone: true, remaining: [], needsUser: false });

let model: FakeModel;
before(async () => (model = await startFakeModel()));
after(async () => model.close());

/** What each CLI prints for one answer in its machine-readable mode (as the real binaries do; test/harness runs them). */
function printed(format: 'claude' | 'codex' | 'pi' | 'opencode' | 'gemini', text: string): string {
  const lines = (objs: object[]) => objs.map((l) => JSON.stringify(l)).join('\n');
  if (format === 'gemini') return JSON.stringify({ session_id: 'x', response: text, stats: { models: { 'gemini-2.5-flash': { tokens: { prompt: 7, candidates: 3, total: 10 }, roles: { main: {} } } } } }, null, 2);
  if (format === 'claude') return JSON.stringify({ type: 'result', result: text, is_error: false, usage: { input_tokens: 7, output_tokens: 3 } });
  if (format === 'codex') return lines([{ type: 'thread.started', thread_id: 'x' }, { type: 'item.completed', item: { type: 'agent_message', text } }, { type: 'turn.completed', usage: { input_tokens: 7, output_tokens: 3 } }]);
  if (format === 'pi') return lines([{ type: 'session', id: 'x' }, { type: 'message_end', message: { role: 'assistant', content: [{ type: 'text', text }], usage: { input: 7, output: 3 } } }]);
  const sessionID = 'ses_0123456789abcdefABCDEFghij';
  return lines([{ type: 'step_start', sessionID }, { type: 'text', sessionID, part: { text } }, { type: 'step_finish', sessionID, part: { tokens: { input: 7, output: 3 } } }]);
}

/** Commands the CLI runners were given, in order (cleanup runs included). */
const ran: string[][] = [];

/** A runner that answers from a queue in the CLI's own output format. */
function cliRunner(format: 'claude' | 'codex' | 'pi' | 'opencode' | 'gemini'): CommandRunner {
  return async (argv, o) => {
    ran.push(argv);
    if (argv.includes('session') && argv.includes('delete')) return { code: 0, stdout: '', stderr: '', error: null };
    const reply = cliQueue.shift() ?? { text: 'hi' };
    if (reply.delayMs && reply.delayMs > o.timeoutMs) return { code: null, stdout: '', stderr: '', error: `timed out after ${o.timeoutMs} ms` };
    if (reply.error) return { code: 1, stdout: '', stderr: reply.error.message, error: null };
    return { code: 0, stdout: printed(format, reply.text ?? ''), stderr: '', error: null };
  };
}
const cliQueue: Reply[] = [];

const PROVIDERS: { name: string; make(): Auditor; enqueue(r: Reply): void }[] = [
  { name: 'anthropic/<model>', make: () => createAnthropicAuditor({ model: 'judge', baseUrl: model.url, apiKey: 'sk-ant-x' }), enqueue: (r) => model.enqueue(r) },
  { name: 'openai/<model>', make: () => createOpenAiAuditor({ model: 'judge', baseUrl: `${model.url}/v1`, apiKey: 'sk-x' }), enqueue: (r) => model.enqueue(r) },
  { name: 'cli:claude', make: () => createCliAuditor({ name: 'claude', headless: claude.headless, model: '', run: cliRunner('claude') }), enqueue: (r) => cliQueue.push(r) },
  { name: 'cli:codex', make: () => createCliAuditor({ name: 'codex', headless: codex.headless, model: 'm', run: cliRunner('codex') }), enqueue: (r) => cliQueue.push(r) },
  { name: 'cli:pi', make: () => createCliAuditor({ name: 'pi', headless: pi.headless, model: 'fake-model', run: cliRunner('pi') }), enqueue: (r) => cliQueue.push(r) },
  { name: 'cli:omp', make: () => createCliAuditor({ name: 'omp', headless: omp.headless, model: '', run: cliRunner('pi') }), enqueue: (r) => cliQueue.push(r) },
  { name: 'cli:opencode', make: () => createCliAuditor({ name: 'opencode', headless: opencode.headless, model: 'fake/fake-model', run: cliRunner('opencode') }), enqueue: (r) => cliQueue.push(r) },
  { name: 'cli:gemini', make: () => createCliAuditor({ name: 'gemini', headless: gemini.headless, model: '', run: cliRunner('gemini'), env: { HOME: '/nonexistent' } }), enqueue: (r) => cliQueue.push(r) },
];

for (const p of PROVIDERS) {
  describe(`auditor contract: ${p.name}`, () => {
    it('a strict JSON answer is a verdict, with tokens counted', async () => {
      p.enqueue({ text: GOOD });
      const r = await p.make().audit(REQ);
      assert.deepEqual(r.ok && r.verdict, { allDone: true, remaining: [], needsUser: false });
      assert.ok(r.tokens > 0);
    });
    it('prose, an HTTP/CLI error and a timeout are failed audits, never throws', async () => {
      p.enqueue({ text: 'Looks complete to me.' });
      p.enqueue({ error: { status: 500, message: 'overloaded' } });
      p.enqueue({ text: GOOD, delayMs: 1500 });
      const a = p.make();
      for (const timeoutMs of [2000, 2000, 300]) {
        const r = await a.audit({ ...REQ, timeoutMs });
        assert.equal(r.ok, false);
        assert.ok(!r.ok && r.error.length > 0);
      }
    });
  });
}

it('cli:gemini removes the chat file its run wrote, whatever the outcome, with the env the run had', async () => {
  const finished: { env: NodeJS.ProcessEnv; id: string | undefined; audit: boolean }[] = [];
  const headless = { ...gemini.headless, finish: (run: Parameters<NonNullable<typeof gemini.headless.finish>>[0]) => (finished.push({ env: run.env, id: run.command.sessionId, audit: run.audit }), run.output) };
  const a = createCliAuditor({ name: 'gemini', headless, model: '', run: async () => ({ code: null, stdout: '', stderr: '', error: 'timed out after 5 ms' }), env: { HOME: '/h' } });
  assert.equal((await a.audit(REQ)).ok, false);
  assert.deepEqual(finished.map((f) => [f.env.HOME, f.env.MUSTER_AUDITOR, f.audit, typeof f.id]), [['/h', '1', true, 'string']]);
});

it('the factory: configured spec wins, the default is the session\'s harness and model, bad specs fail audits', async () => {
  const f = createAuditorFactory({ env: { MUSTER_AUDITOR_BASE_URL: `${model.url}/v1` }, harnesses: auditorHarnesses, run: cliRunner('claude') });
  assert.equal(f('openai/judge', { harness: 'claude', model: 'opus' }).spec, 'openai/judge');
  assert.equal(f('', { harness: 'claude', model: 'opus' }).spec, 'cli:claude/opus');
  assert.equal(f('', { harness: 'codex', model: null }).spec, 'cli:codex');
  // Every harness audits with itself by default; OpenCode's session records no provider, so its own default model.
  assert.equal(f('', { harness: 'pi', model: 'fake-model' }).spec, 'cli:pi/fake-model');
  assert.equal(f('', { harness: 'omp', model: null }).spec, 'cli:omp');
  assert.equal(f('', { harness: 'opencode', model: 'fake-model' }).spec, 'cli:opencode');
  for (const bad of ['nope/x', 'openai/', 'cli:vim']) {
    const r = await f(bad, { harness: 'pi', model: 'x' }).audit(REQ);
    assert.equal(r.ok, false);
  }
  model.enqueue({ text: GOOD });
  const r = await f('openai/judge', { harness: 'pi', model: null }).audit(REQ);
  assert.equal(r.ok, true);
  assert.equal((model.requests.at(-1)!.body as { model: string }).model, 'judge');
});

it('the auditors leave no session behind: pi and omp run with --no-session, OpenCode deletes the one it saved', async () => {
  ran.length = 0;
  cliQueue.push({ text: GOOD }, { text: GOOD });
  await createCliAuditor({ name: 'pi', headless: pi.headless, model: '', run: cliRunner('pi') }).audit(REQ);
  assert.ok(ran[0]?.includes('--no-session') && ran[0].includes('--no-tools') && ran[0].includes('--no-extensions'));
  await createCliAuditor({ name: 'opencode', headless: opencode.headless, model: '', run: cliRunner('opencode') }).audit(REQ);
  assert.deepEqual(ran.at(-1), ['opencode', 'session', 'delete', 'ses_0123456789abcdefABCDEFghij']);
});
