// Search through the real daemon and the built CLI for Gemini CLI and OpenCode (issue 18): real Gemini
// chat files (0.61.0) and an OpenCode store holding a real session's rows are found by `muster search`;
// their conversations read `supported: true` through GET /api/sessions/<harness>/<id>/messages and
// `muster show --messages`, a hit's position opening its message; a Gemini reply rewritten under its id
// and an OpenCode reply updated in place leave no stale hits.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { envFor, runCli, splitBoardUrl, startServe, tempHome, until, waitExit } from './kit.ts';
import { FIXTURES, INTERACTIVE, INTERACTIVE_FILE, PRINTED, PRINTED_FILES } from '../../src/harnesses/gemini/discovery/gemini-fixtures.test-support.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage, type FixtureStore } from '../../src/harnesses/opencode/discovery/fixture-store.test-support.ts';

const OC = fixtureSessionId(42);
const T = Date.now() - 60_000;

interface Hit { role: string; snippet: string; position: number }
interface Result { session: { harness: string; id: string }; hits: Hit[] }
interface Page { ok: boolean; supported: boolean; messages: { position: number; role: string; text: string }[]; next: number | null; total: number }

describe('search through the daemon: Gemini CLI and OpenCode', () => {
  const t = tempHome('muster-e2e-search-go-');
  const env = envFor(t.home, { TZ: 'UTC' });
  const chats = join(t.home, '.gemini', 'tmp', 'proj', 'chats');
  let oc: FixtureStore;
  let daemon: ChildProcess;
  let base = '';
  let token = '';

  before(async () => {
    mkdirSync(chats, { recursive: true });
    mkdirSync(join(t.home, 'proj'));
    writeFileSync(join(t.home, '.gemini', 'tmp', 'proj', '.project_root'), join(t.home, 'proj'));
    for (const f of [...PRINTED_FILES, INTERACTIVE_FILE]) copyFileSync(join(FIXTURES, 'chats', f), join(chats, f));
    oc = createFixtureStore(join(t.home, '.local', 'share', 'opencode'));
    oc.addSession({ id: OC, directory: join(t.home, 'proj'), title: 'Greet the fake user', createdMs: T, updatedMs: T + 2000 });
    oc.addMessage(OC, 'msg_1', T + 10, userMessage(T + 10));
    oc.addPart(OC, 'msg_1', 'prt_1', T + 11, { type: 'text', text: 'RUNCMD: touch /home/dev/scratch/wombat.txt' });
    oc.addMessage(OC, 'msg_2', T + 20, assistantMessage(T + 20, { completedMs: T + 900, finish: 'tool-calls' }));
    oc.addPart(OC, 'msg_2', 'prt_2', T + 21, { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'completed', input: { command: 'touch /home/dev/scratch/wombat.txt' }, output: '(no output)' } });
    oc.addMessage(OC, 'msg_3', T + 1000, assistantMessage(T + 1000, { completedMs: T + 1900, finish: 'stop' }));
    oc.addPart(OC, 'msg_3', 'prt_3', T + 1001, { type: 'text', text: 'tool finished, the dingo is fed' });
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token } = splitBoardUrl(s.envelope.boardUrl));
  });

  after(async () => {
    daemon.kill('SIGTERM');
    await waitExit(daemon);
    oc.close();
    t.cleanup();
  });

  const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const search = async (q: string): Promise<Result[]> => {
    const r = await get(`/api/search?q=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.results as Result[];
  };
  const found = async (q: string) => (await search(q)).map((r) => [r.session.harness, r.session.id, r.hits.map((h) => h.role).join(',')]);

  it('muster search finds a Gemini prompt and reply, and an OpenCode prompt, tool call and reply', async () => {
    const r = await runCli(['search', '"second turn"', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { results: Result[] }).results.map((x) => [x.session.harness, x.session.id, x.hits[0]?.role]), [['gemini', PRINTED, 'user']]);
    assert.deepEqual(await found('tool done'), [['gemini', INTERACTIVE, 'assistant']]);
    assert.deepEqual(await found('run_shell_command'), [['gemini', INTERACTIVE, 'tool-call']]);
    assert.deepEqual(await found('dingo'), [['opencode', OC, 'assistant']]);
    assert.deepEqual((await found('wombat harness:opencode')).map((x) => x[2]?.split(',').sort().join(',')), ['tool-call,user']);
    assert.deepEqual(await found('"session_context"'), [], 'the context Gemini writes is not a message');
  });

  it('both conversations read supported: true, a hit\'s position opening its message', async () => {
    for (const [harness, id, q] of [['gemini', INTERACTIVE, 'tool done'], ['opencode', OC, 'dingo']] as const) {
      const hit = (await search(`${q} harness:${harness}`))[0]?.hits[0];
      assert.ok(hit, `${harness}: ${q}`);
      const page = (await get(`/api/sessions/${harness}/${id}/messages?from=${hit.position}&limit=1`)).body as unknown as Page;
      assert.equal(page.supported, true);
      assert.match(page.messages[0]?.text ?? '', new RegExp(q.split(' ')[0] ?? ''));
      assert.equal(page.messages[0]?.position, hit.position);
      const show = await runCli(['show', id, '--messages', '--json'], env);
      assert.equal(show.code, 0, show.stderr);
      const body = JSON.parse(show.stdout) as Page;
      assert.equal(body.supported, true);
      assert.ok(body.messages.some((m) => m.role === 'user') && body.messages.some((m) => m.role === 'assistant'), JSON.stringify(body.messages));
    }
    const printed = (await get(`/api/sessions/gemini/${PRINTED}/messages`)).body as unknown as Page;
    assert.deepEqual(printed.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant'], 'a resumed session\'s two files are one conversation');
    assert.equal((await get(`/api/sessions/opencode/${fixtureSessionId(43)}/messages`)).status, 404);
  });

  it('a Gemini reply rewritten under its id and an OpenCode reply updated in place leave no stale hits', async () => {
    const rewrite = { id: '5acf41ac-5dca-41aa-a354-465cdd5fb91c', timestamp: '2026-12-01T12:51:49.186Z', type: 'gemini', content: 'the kookaburra laughs', model: 'gemini-fake' };
    appendFileSync(join(chats, INTERACTIVE_FILE), `${JSON.stringify(rewrite)}\n`);
    oc.updatePart('prt_3', Date.now(), { type: 'text', text: 'tool finished, the echidna is fed' });
    oc.updateMessage('msg_3', Date.now(), assistantMessage(T + 1000, { completedMs: Date.now(), finish: 'stop' }));
    await until('both rewrites are indexed', async () => ((await search('kookaburra')).length > 0 && (await search('echidna')).length > 0 ? true : undefined), 10_000);
    assert.deepEqual(await found('"tool done"'), []);
    assert.deepEqual(await found('dingo'), []);
    const page = (await get(`/api/sessions/gemini/${INTERACTIVE}/messages`)).body as unknown as Page;
    assert.deepEqual(page.messages.map((m) => m.text).at(-1), 'the kookaburra laughs');
    assert.equal(page.total, 4, 'the rewritten reply keeps its place');
  });
});
