/**
 * Smoke tier: each real, pinned harness CLI runs headless, offline, against the fake model, makes
 * one tool round trip (`TOOL_BASH` → shell tool → `tool done`), and leaves its session file where
 * that version writes it (kit/session-paths.ts).
 * Run: node --import tsx --test --test-concurrency=1 test/harness/smoke.test.ts
 * (the first run installs the CLIs, ~1 GB, into the harness cache).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel, FakeRequest } from '../fakes/fake-model/index.ts';
import { claudeTranscriptPath, ensureHarnessCli, findFiles, harnessEnv, ompSessionDir, piSessionDir, readJsonl, runCli, startTmux } from './kit/index.ts';
import type { CliResult, HarnessEnv, HarnessName } from './kit/index.ts';

const PROMPT = 'TOOL_BASH smoke';

interface Run {
  fake: FakeModel;
  h: HarnessEnv;
  result: CliResult;
  /** Model calls that were not side calls. */
  turns: FakeRequest[];
}

/** Runs `name` once in a fresh temp root; `argv` follows the harness's model-selecting prefix. */
async function smoke(name: HarnessName, argv: string[], check: (run: Run) => void | Promise<void>): Promise<void> {
  const cli = await ensureHarnessCli(name);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-smoke-${name}-`));
  const fake = await startFakeModel({ logFile: path.join(root, 'fake-model.jsonl') });
  fake.onRequest(keywordHandler());
  let ok = false;
  try {
    const h = harnessEnv(name, { root, modelUrl: fake.url, binDir: cli.binDir });
    const result = await runCli(cli.bin, [...h.argvPrefix, ...argv], { cwd: h.cwd, env: h.env, timeoutMs: 180_000 });
    const output = `exit ${result.code}/${result.signal}${result.timedOut ? ' (timed out)' : ''}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
    assert.equal(result.code, 0, output);
    assert.match(result.stdout + result.stderr, /tool done/, output);
    const turns = fake.requests.filter((r) => r.reply !== undefined && r.sideCall === undefined);
    assert.equal(turns.length, 2, 'one tool call, one answer after the tool result');
    assert.equal(turns[0]?.reply?.toolCalls?.length, 1);
    await check({ fake, h, result, turns });
    ok = true;
  } finally {
    await fake.close();
    // Kept on failure so the fake's request log and the harness's files can be read.
    if (ok && !process.env['MUSTER_KEEP_SMOKE']) fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    else process.stderr.write(`smoke ${name}: files kept in ${root}\n`);
  }
}

test('claude -p answers from the fake and writes its transcript under CLAUDE_CONFIG_DIR', () => {
  const sessionId = randomUUID();
  return smoke('claude', ['-p', PROMPT, '--session-id', sessionId], ({ h, turns }) => {
    for (const t of turns) {
      assert.equal(t.path, '/v1/messages?beta=true');
      assert.equal(t.sessionId, sessionId, 'x-claude-code-session-id is the pinned session id');
    }
    assert.deepEqual(turns[0]?.reply?.toolCalls?.map((c) => c.name), ['Bash']);
    const transcript = claudeTranscriptPath(h.configDir, h.cwd, sessionId);
    assert.ok(fs.existsSync(transcript), `transcript at ${transcript}`);
    const records = readJsonl(transcript);
    assert.ok(records.some((r) => r['type'] === 'assistant' && JSON.stringify(r).includes('tool done')));
    assert.ok(records.some((r) => r['type'] === 'user' && JSON.stringify(r).includes('hello-from-tool')), 'the Bash tool really ran');
  });
});

test('pi -p answers from the fake and writes its session under PI_CODING_AGENT_DIR', () =>
  smoke('pi', ['-p', PROMPT], ({ h, turns }) => {
    assert.ok(turns.every((t) => t.protocol === 'chat-completions' && t.sessionId === undefined), 'pi sends no session header');
    const files = findFiles(piSessionDir(h.configDir, h.cwd), /^\d{4}-\d\d-\d\dT[\d-]+Z_[0-9a-f-]{36}\.jsonl$/);
    assert.equal(files.length, 1, `one session file in ${piSessionDir(h.configDir, h.cwd)}`);
    const records = readJsonl(files[0] ?? '');
    assert.equal(records[0]?.['type'], 'session');
    assert.ok(path.basename(files[0] ?? '').endsWith(`_${String(records[0]?.['id'])}.jsonl`), 'file name ends with the session id');
    const answer = records.find((r) => r['type'] === 'message' && JSON.stringify(r).includes('tool done'));
    // The fake's default usage (DEFAULT_USAGE) reaches the transcript unchanged.
    const usage = (answer?.['message'] as { usage?: { input: number; output: number } } | undefined)?.usage;
    assert.deepEqual({ input: usage?.input, output: usage?.output }, { input: 100, output: 10 });
  }));

test('omp -p answers from the fake and writes its session (with session_exit) under ~/.omp/agent', () =>
  smoke('omp', ['-p', PROMPT], ({ h, turns }) => {
    assert.ok(turns.every((t) => t.protocol === 'chat-completions' && String(t.headers['user-agent']).startsWith('omp/18.2.3')));
    const dir = ompSessionDir(h.home, h.cwd);
    const files = findFiles(dir, /_[0-9a-f-]{36}\.jsonl$/);
    assert.equal(files.length, 1, `one session file in ${dir}`);
    const records = readJsonl(files[0] ?? '');
    assert.equal(records[0]?.['type'], 'title', 'line 1 is the padded title record');
    assert.equal(records[1]?.['type'], 'session');
    const exit = records.at(-1);
    assert.equal(exit?.['customType'], 'session_exit');
    assert.equal((exit?.['data'] as { reason?: string } | undefined)?.reason, 'dispose', 'a -p run ends with a clean dispose');
  }));

test('codex exec answers from the fake and writes its rollout under CODEX_HOME/sessions/YYYY/MM/DD', () =>
  smoke('codex', ['exec', '--skip-git-repo-check', PROMPT], ({ h, turns }) => {
    const threadId = turns[0]?.sessionId;
    assert.match(String(threadId), /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/, 'session-id header is a UUIDv7 thread id');
    for (const t of turns) {
      assert.equal(t.protocol, 'responses');
      assert.equal(t.sessionId, threadId);
      assert.equal(t.headers['originator'], 'codex_exec');
    }
    assert.deepEqual(turns[0]?.reply?.toolCalls?.map((c) => c.name), ['exec_command']);
    const rollouts = findFiles(path.join(h.configDir, 'sessions'), new RegExp(`^rollout-[\\dT-]+-${threadId}\\.jsonl$`));
    assert.equal(rollouts.length, 1, 'one rollout for the thread');
    assert.match(path.relative(h.configDir, rollouts[0] ?? ''), /^sessions\/\d{4}\/\d\d\/\d\d\/rollout-/);
    const meta = readJsonl(rollouts[0] ?? '')[0];
    assert.equal(meta?.['type'], 'session_meta');
  }));

test('opencode run answers from the fake and records the session in its SQLite database', () =>
  smoke('opencode', ['run', ...PROMPT.split(' ')], ({ fake, h, turns }) => {
    const sessionId = turns[0]?.sessionId;
    assert.match(String(sessionId), /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    assert.ok(turns.every((t) => t.sessionId === sessionId && t.headers['x-session-affinity'] === sessionId));
    assert.ok(fake.requests.some((r) => r.sideCall === 'opencode-title'), 'the title side call was recognised');
    const dbFile = path.join(String(h.env['XDG_DATA_HOME']), 'opencode', 'opencode.db');
    assert.ok(fs.existsSync(dbFile), `database at ${dbFile}`);
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('select id, directory, title from session where id = ?').get(sessionId) as { id: string; directory: string; title: string } | undefined;
      assert.equal(row?.directory, h.cwd);
      assert.equal(row?.title, 'Fake session title');
    } finally {
      db.close();
    }
  }));

test('claude interactive in a private tmux pane: seeded config skips dialogs, answers, registers its pid', async () => {
  const cli = await ensureHarnessCli('claude');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-smoke-claude-tui-'));
  const fake = await startFakeModel({ logFile: path.join(root, 'fake-model.jsonl') });
  const tmux = await startTmux(root);
  let ok = false;
  try {
    const h = harnessEnv('claude', { root, modelUrl: fake.url, binDir: cli.binDir });
    const pane = await tmux.newPane([cli.bin, ...h.argvPrefix], { cwd: h.cwd, env: h.env });
    // Keys typed before the prompt is drawn are lost, so wait for it first.
    await tmux.waitForText(pane.id, /❯/, 60_000);
    await tmux.sendKeys(pane.id, 'hello from tmux', { literal: true });
    await tmux.sendKeys(pane.id, 'Enter');
    await tmux.waitForText(pane.id, /hi from fake model/, 60_000);
    const turn = await fake.waitForRequest((r) => r.protocol === 'anthropic-messages', 1000);
    assert.match(String(turn.headers['user-agent']), /\(external, cli\)/);
    const registry = path.join(h.configDir, 'sessions', `${pane.pid}.json`);
    const entry = JSON.parse(fs.readFileSync(registry, 'utf8')) as { pid: number; sessionId: string; cwd: string };
    assert.equal(entry.pid, pane.pid, 'the pane pid is the claude process');
    assert.equal(entry.sessionId, turn.sessionId);
    assert.equal(entry.cwd, h.cwd);
    ok = true;
  } finally {
    await tmux.kill();
    await fake.close();
    if (ok && !process.env['MUSTER_KEEP_SMOKE']) fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    else process.stderr.write(`smoke claude tui: files kept in ${root}\n`);
  }
});
