import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAppServer, parseThreadRead, withAppServer } from './app-server-client.ts';
import { startFakeAppServer } from './fake-app-server.test-support.ts';
import { OP, createFrameDecoder, createMessageAssembler, encodeFrame } from './ws-frames.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-codex-ws-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('websocket frames', () => {
  it('round-trips masked and unmasked frames of every length class, split at any byte', () => {
    for (const len of [0, 5, 125, 126, 65535, 65536, 200_000]) {
      for (const mask of [true, false]) {
        const payload = Buffer.alloc(len, 'a');
        const wire = encodeFrame(OP.text, payload, mask);
        const decode = createFrameDecoder();
        const frames = [...decode(wire.subarray(0, 3)), ...decode(wire.subarray(3, 11)), ...decode(wire.subarray(11))];
        assert.equal(frames.length, 1, `len ${len}`);
        assert.equal(frames[0]?.payload.length, len);
        assert.ok(frames[0]?.payload.equals(payload));
      }
    }
  });
  it('assembles fragmented messages', () => {
    const asm = createMessageAssembler();
    assert.equal(asm({ fin: false, opcode: OP.text, payload: Buffer.from('{"a"') }), null);
    assert.deepEqual(asm({ fin: true, opcode: OP.continuation, payload: Buffer.from(':1}') })?.data.toString(), '{"a":1}');
  });
  it('refuses an oversized frame', () => {
    const decode = createFrameDecoder(10);
    assert.throws(() => decode(encodeFrame(OP.text, Buffer.alloc(11), false)), /too large/);
  });
});

describe('app-server control client', () => {
  it('initializes, reads a thread through the symlinked control path, and closes', async () => {
    const real = join(dir, 'daemon.sock');
    const fake = await startFakeAppServer(real);
    mkdirSync(join(dir, 'app-server-control'));
    const link = join(dir, 'app-server-control', 'app-server-control.sock');
    symlinkSync(real, link);
    fake.threads.set('t1', { type: 'active', activeFlags: ['waitingOnApproval'], name: 'n', cwd: '/p' });
    const status = await withAppServer(link, async (c) => parseThreadRead(await c.request('thread/read', { threadId: 't1' })));
    assert.deepEqual(status, { type: 'active', activeFlags: ['waitingOnApproval'], name: 'n', cwd: '/p' });
    assert.deepEqual(fake.calls.map((c) => c.method), ['initialize', 'initialized', 'thread/read']);
    await fake.close();
  });

  it('never sends a subscribing method', async () => {
    const fake = await startFakeAppServer(join(dir, 'd2.sock'));
    const c = await connectAppServer(join(dir, 'd2.sock'));
    await assert.rejects(c.request('thread/resume', { threadId: 't' }), /not allowed/);
    await assert.rejects(c.request('turn/interrupt', { threadId: 'nope', turnId: 'x' }), /not loaded/);
    c.close();
    assert.ok(!fake.calls.some((x) => x.method === 'thread/resume'));
    await fake.close();
  });

  it('fails fast when nothing listens, or the peer does not upgrade', async () => {
    await assert.rejects(connectAppServer(join(dir, 'missing.sock'), { timeoutMs: 500 }));
    const p = join(dir, 'http.sock');
    const conns: import('node:net').Socket[] = [];
    const srv = createServer((s) => { conns.push(s); s.write('HTTP/1.1 400 Bad Request\r\n\r\n'); });
    await new Promise<void>((r) => srv.listen(p, r));
    await assert.rejects(connectAppServer(p, { timeoutMs: 500 }), /refused upgrade/);
    for (const s of conns) s.destroy();
    await new Promise<void>((r) => srv.close(() => r()));
  });

  it('times out a silent peer', async () => {
    const p = join(dir, 'silent.sock');
    const held: import('node:net').Socket[] = [];
    const srv = createServer((s) => { held.push(s); });
    await new Promise<void>((r) => srv.listen(p, r));
    const t0 = Date.now();
    await assert.rejects(connectAppServer(p, { timeoutMs: 200 }), /timed out/);
    assert.ok(Date.now() - t0 < 2000);
    for (const s of held) s.destroy();
    await new Promise<void>((r) => srv.close(() => r()));
  });

  it('parseThreadRead tolerates junk', () => {
    assert.equal(parseThreadRead(null), null);
    assert.equal(parseThreadRead({ thread: {} }), null);
    assert.deepEqual(parseThreadRead({ thread: { status: { type: 'idle' } } }), { type: 'idle', activeFlags: [], name: null, cwd: null });
  });
});
