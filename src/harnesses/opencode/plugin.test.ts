import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import plugin from './plugin.ts';
import { pointReportersAt } from '../status-assets/daemon-env.test-support.ts';

interface Message { info: { role: string; id: string; time: { created: number; completed?: number } }; parts: { type: string; text: string }[] }

const user = (id: string, text: string): Message => ({ info: { role: 'user', id, time: { created: 1 } }, parts: [{ type: 'text', text }] });
const reply = (id: string, text: string, completed: boolean): Message => ({ info: { role: 'assistant', id, time: { created: 2, ...(completed ? { completed: 3 } : {}) } }, parts: [{ type: 'text', text }] });

/**
 * The plugin in a fake TUI (its event bus and SDK client), against a fake daemon on 127.0.0.1 that
 * records the turn ends it is told of and answers each with a continuation.
 */
async function withPlugin(run: (t: { idle(messages: Message[]): Promise<void>; turnEnds: Record<string, unknown>[]; prompts: string[] }) => Promise<void>): Promise<void> {
  const turnEnds: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url?.includes('/hooks/opencode/session.idle')) {
        turnEnds.push((JSON.parse(body) as { payload: Record<string, unknown> }).payload);
        res.end(JSON.stringify({ ok: true, decision: { decision: 'block', reason: 'keep going' } }));
      } else if (req.url?.includes('/hooks/')) res.end(JSON.stringify({ ok: true }));
      else {
        const t = setTimeout(() => res.end(JSON.stringify({ ok: true, prompts: [] })), 25_000);
        req.on('close', () => clearTimeout(t));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'muster-oc-plugin-'));
  writeFileSync(join(dir, 'token'), 'a'.repeat(43));
  const restoreEnv = pointReportersAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, join(dir, 'token'));
  type Handler = (e: { properties?: Record<string, unknown> }) => void;
  const handlers = new Map<string, Handler[]>();
  let messages: Message[] = [];
  const prompts: string[] = [];
  const api = {
    event: { on: (type: string, h: Handler): void => { handlers.set(type, [...(handlers.get(type) ?? []), h]); } },
    client: {
      session: {
        messages: async () => ({ data: messages }),
        promptAsync: async (a: { parts: { text: string }[] }) => { prompts.push(a.parts[0]?.text ?? ''); },
      },
    },
  };
  try {
    await plugin.tui(api);
    await run({
      turnEnds,
      prompts,
      async idle(now) {
        messages = now;
        const before = turnEnds.length;
        for (const h of handlers.get('session.idle') ?? []) h({ properties: { sessionID: 'ses_1' } });
        // The handler's work is asynchronous: give it time to report (or to decide not to) and to send.
        const deadline = Date.now() + 1500;
        while (turnEnds.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 100));
      },
    });
  } finally {
    server.closeAllConnections();
    server.close();
    restoreEnv();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the OpenCode plugin reports a turn end once, and only while the session is still at it', () => {
  it('an idle after a completed reply reports it with its id and sends the continuation; an idle after the session moved on reports nothing', async () => {
    await withPlugin(async (t) => {
      await t.idle([user('m1', 'start'), reply('m2', 'first answer', true)]);
      assert.equal(t.turnEnds.length, 1);
      assert.equal(t.turnEnds[0]?.muster_turn_id, 'm2');
      assert.equal(t.turnEnds[0]?.last_assistant_message, 'first answer');
      assert.equal(t.turnEnds[0]?.muster_turn_ended_at, 3, "the turn ended when its reply completed (a goal set after that is not this turn's)");
      assert.deepEqual(t.prompts, ['keep going']);

      // A late second idle of the first turn, read once the continuation is in and its reply is streaming.
      await t.idle([user('m1', 'start'), reply('m2', 'first answer', true), user('m3', 'keep going'), reply('m4', 'sec', false)]);
      assert.equal(t.turnEnds.length, 1, 'a reply not completed yet is the next turn, running');
      await t.idle([user('m1', 'start'), reply('m2', 'first answer', true), user('m3', 'keep going')]);
      assert.equal(t.turnEnds.length, 1, 'a user message after the reply: the session has moved on');

      await t.idle([user('m1', 'start'), reply('m2', 'first answer', true), user('m3', 'keep going'), reply('m4', 'second answer', true)]);
      assert.equal(t.turnEnds.length, 2, 'the next turn reports its own end');
      assert.equal(t.turnEnds[1]?.muster_turn_id, 'm4');
      assert.deepEqual(t.prompts, ['keep going', 'keep going']);
    });
  });
});
