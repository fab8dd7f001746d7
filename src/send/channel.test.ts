// The channel a prompt takes, per harness and state: the harness's own channel first, typing into a
// verified pane only when the process can take it, a dormant session resumed with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTERS, adapterFor, type Harness } from '../harnesses/registry.ts';
import type { SessionStatus } from '../core/session.ts';
import { chooseChannel, type ChannelFacts, type ChannelPlan } from './channel.ts';

function facts(harness: Harness, over: Partial<Omit<ChannelFacts, 'session'>> & { live?: boolean; canEnd?: boolean; promptable?: boolean } = {}): ChannelFacts {
  const { live = true, canEnd = true, promptable, ...rest } = over;
  return {
    session: { id: 'ses_x', harness, live, canEnd, promptable },
    status: 'idle',
    statusKnown: true,
    listening: false,
    support: adapterFor(harness).send,
    ...rest,
  };
}

const short = (p: ChannelPlan): string => (p.channel === null ? `refused:${p.code}` : `${p.channel}${p.queued ? '+queued' : ''}`);

test('an extension or plugin listening on the inbox wins, and queues behind a running turn (pi/omp followUp, OpenCode promptAsync)', () => {
  for (const h of ['pi', 'omp', 'opencode'] as const) {
    assert.equal(short(chooseChannel(facts(h, { listening: true }))), 'inbox');
    assert.equal(short(chooseChannel(facts(h, { listening: true, status: 'working' }))), 'inbox+queued');
    // Even while it waits on a question: the extension queues the prompt after it, nothing is typed.
    assert.equal(short(chooseChannel(facts(h, { listening: true, status: 'waiting' }))), 'inbox+queued');
  }
});

test('the harness\'s own server comes next: an OpenCode session on `serve` or `--port`, live or listed dormant', () => {
  assert.equal(short(chooseChannel(facts('opencode', { promptable: true }))), 'server');
  assert.equal(short(chooseChannel(facts('opencode', { promptable: true, live: false, status: 'ended' }))), 'server');
  assert.equal(short(chooseChannel(facts('opencode', { promptable: true, status: 'working' }))), 'server+queued');
  assert.equal(short(chooseChannel(facts('opencode', { promptable: true, listening: true }))), 'inbox');
});

test('an idle live session without an own channel is typed into its pane, for every harness', () => {
  for (const a of ADAPTERS) assert.equal(short(chooseChannel(facts(a.name))), 'pane', a.name);
  // stuck (a reply whose process went quiet) is not a turn in progress: typing is the way to nudge it.
  assert.equal(short(chooseChannel(facts('claude', { status: 'stuck' }))), 'pane');
});

test('a working session is typed into only where its TUI queues typed prompts (Claude Code, Gemini CLI, Copilot CLI); others are busy', () => {
  const working = (h: Harness) => short(chooseChannel(facts(h, { status: 'working' })));
  for (const h of ['claude', 'gemini', 'copilot'] as const) assert.equal(working(h), 'pane+queued', h);
  // Codex sends a prompt typed mid-turn at once (a steer); pi, omp and OpenCode queue through their own channel.
  for (const h of ['codex', 'pi', 'omp', 'opencode'] as const) assert.equal(working(h), 'refused:busy', h);
});

test('a session waiting on a question of its own is busy: typed text would answer its prompt', () => {
  for (const a of ADAPTERS) assert.equal(short(chooseChannel(facts(a.name, { status: 'waiting' }))), 'refused:busy', a.name);
});

test('a status nobody reports (Gemini CLI without hooks) is busy: Muster does not type blind', () => {
  const p = chooseChannel(facts('gemini', { statusKnown: false }));
  assert.equal(short(p), 'refused:busy');
  assert.match(p.channel === null ? p.message : '', /muster gemini/);
});

test('a live process matched by directory only is never typed into; a verified one Muster will not signal is', () => {
  assert.equal(short(chooseChannel(facts('codex', { canEnd: false }))), 'refused:unsupported');
  // An embedded Codex TUI holds its thread's lock (verified) but dies uncleanly on a signal (canEnd false).
  const embedded = facts('codex', { canEnd: false });
  assert.equal(short(chooseChannel({ ...embedded, session: { ...embedded.session, processVerified: true } })), 'pane');
  assert.equal(short(chooseChannel({ ...embedded, session: { ...embedded.session, canEnd: true, processVerified: false } })), 'refused:unsupported');
});

test('a dormant session is resumed with the prompt, where the harness can take one on its command line', () => {
  const statuses: SessionStatus[] = ['ended', 'idle'];
  for (const a of ADAPTERS) for (const status of statuses) assert.equal(short(chooseChannel(facts(a.name, { live: false, status }))), 'resume', a.name);
  assert.equal(short(chooseChannel({ ...facts('claude', { live: false }), support: undefined })), 'refused:unsupported');
});

test('resume commands carry the prompt as one argv element, after `--` or in an `=` value where the CLI allows', () => {
  const uuid = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
  const text = '-n $(touch x) `id`\nsecond line';
  const argv = (h: Harness, id = uuid) => adapterFor(h).send?.resumeWithPrompt(id, text);
  assert.deepEqual(argv('claude'), ['claude', '--resume', uuid, '--', text]);
  assert.deepEqual(argv('codex'), ['codex', 'resume', uuid, '--', text]);
  assert.deepEqual(argv('opencode', 'ses_0123456789abcdefghijklmnop'), ['opencode', '-s', 'ses_0123456789abcdefghijklmnop', `--prompt=${text}`]);
  assert.deepEqual(argv('gemini'), ['gemini', '--resume', uuid, `--prompt-interactive=${text}`]);
  assert.deepEqual(argv('copilot'), ['copilot', `--resume=${uuid}`, `--interactive=${text}`]);
  // pi and omp have no `--`: a leading - or @ would be an option or a file, so that text is refused.
  assert.equal(argv('pi'), null);
  assert.equal(argv('omp'), null);
  assert.deepEqual(adapterFor('pi').send?.resumeWithPrompt(uuid, 'fix it'), ['pi', '--session', uuid, 'fix it']);
  assert.deepEqual(adapterFor('omp').send?.resumeWithPrompt(uuid, 'fix it'), ['omp', '--resume', uuid, 'fix it']);
  assert.equal(adapterFor('pi').send?.resumeWithPrompt(uuid, '@/etc/passwd'), null);
  assert.equal(adapterFor('claude').send?.resumeWithPrompt('not-an-id', 'x'), null);
});
