import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTui, type EventHandlers, type TuiApi } from './app.ts';
import type { Key } from './keys.ts';
import type { Terminal } from './terminal.ts';
import { session, uuid } from './tui-fixtures.test-support.ts';

function fakeTerminal(columns = 80, rows = 24) {
  const writes: string[] = [];
  const calls: string[] = [];
  let keyListener: ((k: Key) => void) | null = null;
  const term: Terminal = {
    size: () => ({ columns, rows }),
    write: (d) => void writes.push(d),
    onKey: (l) => ((keyListener = l), () => void (keyListener = null)),
    onResize: () => () => undefined,
    enter: () => void calls.push('enter'),
    restore: () => void calls.push('restore'),
    suspend: () => undefined,
  };
  return { term, writes, calls, press: (ch: string) => keyListener?.({ name: ch, ch, ctrl: false, meta: false, shift: false }) };
}

const until = async (what: string, ok: () => boolean) => {
  const deadline = Date.now() + 3000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 3 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('the TUI app', () => {
  it('subscribes, draws a snapshot at once, fetches again on hello, applies events queued meanwhile, repaints on change, calls the API on keys, restores on quit', async () => {
    const t = fakeTerminal();
    let handlers!: EventHandlers;
    let closed = false;
    const requests: string[] = [];
    let title = 'first one';
    const api: TuiApi = {
      async call(method, path, body) {
        requests.push(`${method} ${path}${body ? ` ${JSON.stringify(body)}` : ''}`);
        if (path === '/sessions') {
          // An event arrives while the snapshot is in flight: it must not be lost.
          handlers.onMessage({ id: '2', type: 'session.upserted', data: { session: session(2, { title: 'arrived late' }) } });
          return { sessions: [session(1, { title })] };
        }
        if (path === '/focus') return { ok: true, outcome: 'focused' };
        return { pages: [], goals: [] };
      },
    };
    const tui = createTui({ api, terminal: t.term, color: false, events: (h) => ((handlers = h), { close: () => void (closed = true) }) });
    await tui.start();
    assert.deepEqual(t.calls, ['enter']);
    // The first snapshot does not wait for the stream's hello (the stream was subscribed first).
    await until('the first snapshot drawn before any hello', () => t.writes.join('').includes('arrived late') && t.writes.join('').includes('first one'));
    assert.deepEqual(requests.filter((r) => r === 'GET /sessions'), ['GET /sessions']);
    // That snapshot may predate the stream: the hello brings one that cannot have missed an event.
    title = 'after hello';
    handlers.onState('open');
    handlers.onMessage({ id: null, type: 'daemon.hello', data: { resync: false } });
    await until('the post-hello snapshot drawn', () => t.writes.join('').includes('after hello'));
    assert.equal(requests.filter((r) => r === 'GET /sessions').length, 2);
    const before = t.writes.length;
    handlers.onMessage({ id: '3', type: 'session.status.changed', data: { id: uuid(1), status: 'waiting', waitingFor: 'approve?', live: true, statusSince: new Date().toISOString() } });
    await until('the change drawn', () => t.writes.slice(before).join('').includes('approve?'));
    t.press('f');
    await until('focus called and its outcome shown', () => t.writes.join('').includes('focused'));
    assert.ok(requests.includes(`POST /focus {"sessionId":"${uuid(1)}","via":"cli"}`));
    t.press('q');
    assert.equal(await tui.done, 0);
    assert.deepEqual(t.calls, ['enter', 'restore']);
    assert.ok(closed, 'the event stream is closed');
  });

  it('after the post-hello snapshot, only a resync hello refetches; a hello during a fetch is not lost', async () => {
    const t = fakeTerminal();
    let handlers!: EventHandlers;
    let fetches = 0;
    let release: (() => void) | null = null;
    const api: TuiApi = {
      call: async (_m, path) => {
        if (path !== '/sessions') return {};
        const n = ++fetches;
        // The first fetch is held until the hello has arrived: that hello must still cause a fetch.
        if (n === 1) await new Promise<void>((r) => (release = r));
        return { sessions: [session(n)] };
      },
    };
    const tui = createTui({ api, terminal: t.term, color: false, events: (h) => ((handlers = h), { close: () => undefined }) });
    await tui.start();
    await until('first fetch in flight', () => release !== null);
    handlers.onMessage({ id: null, type: 'daemon.hello', data: {} });
    release!();
    await until('the post-hello snapshot', () => fetches === 2 && tui.state().sessions.has(uuid(2)));
    handlers.onMessage({ id: null, type: 'daemon.hello', data: { resync: false } });
    handlers.onMessage({ id: null, type: 'daemon.hello', data: { resync: true } });
    await until('the resync snapshot', () => tui.state().sessions.has(uuid(3)));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(fetches, 3, 'a plain reconnect hello replays events instead of refetching');
    tui.stop();
  });
  it('events queued while the snapshot was on its way: those its listing reflects are not applied again, the later ones are', async () => {
    const t = fakeTerminal(140);
    let handlers!: EventHandlers;
    const api: TuiApi = {
      async call(_method, path) {
        if (path !== '/sessions') return { pages: [], goals: [] };
        // Events 4 to 6 arrive while the listing, taken at event 5 (session 1 idle, 40 indexed), is on its way.
        handlers.onMessage({ id: '4', type: 'session.upserted', data: { session: session(1, { status: 'working' }) } });
        handlers.onMessage({ id: '5', type: 'index.progress.changed', data: { active: true, done: 40, total: 800, bytesDone: 1, bytesTotal: 9 } });
        handlers.onMessage({ id: '6', type: 'session.upserted', data: { session: session(2, { title: 'indexed after' }) } });
        handlers.onMessage({ id: '4', type: 'index.progress.changed', data: { active: true, done: 30, total: 800, bytesDone: 1, bytesTotal: 9 } });
        return { sessions: [session(1, { status: 'idle' })], eventId: 5, indexing: { active: true, done: 40, total: 800, bytesDone: 1, bytesTotal: 9 } };
      },
    };
    const tui = createTui({ api, terminal: t.term, color: false, events: (h) => ((handlers = h), { close: () => undefined }) });
    await tui.start();
    await until('the snapshot applied', () => tui.state().sessions.has(uuid(2)));
    assert.equal(tui.state().sessions.get(uuid(1))?.status, 'idle', 'event 4 is older than the listing');
    assert.equal(tui.state().sessions.get(uuid(2))?.title, 'indexed after');
    assert.equal(tui.state().indexing, 'indexed 40 / 800 transcripts', 'the figure does not step back to an older one');
    tui.stop();
  });

  it('a cold index: the figure from the listing, then from each index.progress.changed, gone at its end', async () => {
    const t = fakeTerminal(140);
    let handlers!: EventHandlers;
    const api: TuiApi = {
      async call(_method, path) {
        if (path === '/sessions') return { sessions: [session(1)], indexing: { active: true, done: 3, total: 800, bytesDone: 1, bytesTotal: 9 } };
        return { pages: [], goals: [] };
      },
    };
    const tui = createTui({ api, terminal: t.term, color: false, events: (h) => ((handlers = h), { close: () => undefined }) });
    await tui.start();
    await until('the listing\'s figure', () => tui.state().indexing === 'indexed 3 / 800 transcripts');
    handlers.onMessage({ id: '2', type: 'index.progress.changed', data: { active: true, done: 312, total: 800, bytesDone: 5, bytesTotal: 9, sources: [] } });
    await until('the figure drawn', () => t.writes.join('').includes('indexed 312 / 800 transcripts'));
    handlers.onMessage({ id: '3', type: 'index.progress.changed', data: { active: false, done: 800, total: 800, bytesDone: 9, bytesTotal: 9, sources: [] } });
    assert.equal(tui.state().indexing, null);
    t.press('q');
    assert.equal(await tui.done, 0);
  });
});
