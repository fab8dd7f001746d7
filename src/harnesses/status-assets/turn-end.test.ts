import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenInbox } from './turn-end.ts';
import { pointReportersAt } from './daemon-env.test-support.ts';

interface FakeDaemon {
  polls: { ids: string[]; at: number }[];
  close(): void;
}

/** A daemon that holds every inbox poll for its whole 25 s, as the real one does when nothing is waiting; the reporters point at it. */
async function fakeDaemon(): Promise<FakeDaemon> {
  const polls: FakeDaemon['polls'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      polls.push({ ids: (JSON.parse(body) as { sessionIds: string[] }).sessionIds, at: Date.now() });
      const t = setTimeout(() => res.end(JSON.stringify({ ok: true, prompts: [] })), 25_000);
      req.on('close', () => clearTimeout(t));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'muster-inbox-poll-'));
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, 'a'.repeat(43));
  const restoreEnv = pointReportersAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, tokenFile);
  return {
    polls,
    close() {
      server.closeAllConnections();
      server.close();
      restoreEnv();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ok()) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the in-process reporters\' inbox poll', () => {
  it('a session the process starts showing is listened for at once: the running long poll is cut and made again with it', async () => {
    const daemon = await fakeDaemon();
    const { polls } = daemon;
    const shown = ['ses_first'];
    const listener = listenInbox('opencode', () => [...shown], () => undefined);
    try {
      await until('the first poll', () => polls.length === 1);
      assert.deepEqual(polls[0]?.ids, ['ses_first']);
      const changedAt = Date.now();
      shown.unshift('ses_second');
      await until('a new poll naming the new session, well before the running one would end', () => polls.length === 2);
      assert.deepEqual(polls[1]?.ids, ['ses_second', 'ses_first']);
      assert.ok(polls[1]!.at - changedAt < 2000, `re-polled after ${polls[1]!.at - changedAt} ms`);
    } finally {
      listener.stop();
      daemon.close();
    }
  });

  it('a process that knew no session polls within a fraction of a second of its first one, not at the next 2 s check', async () => {
    const daemon = await fakeDaemon();
    const shown: string[] = [];
    const listener = listenInbox('opencode', () => [...shown], () => undefined);
    try {
      // Well inside what was a 2 s wait between checks, so a 2 s check would come ~1.7 s after the session.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(daemon.polls.length, 0, 'no poll while the process knows no session');
      const shownAt = Date.now();
      shown.push('ses_only');
      await until('a poll naming the session', () => daemon.polls.length === 1);
      assert.deepEqual(daemon.polls[0]?.ids, ['ses_only']);
      assert.ok(daemon.polls[0]!.at - shownAt < 1000, `first poll ${daemon.polls[0]!.at - shownAt} ms after the session was known`);
    } finally {
      listener.stop();
      daemon.close();
    }
  });
});
