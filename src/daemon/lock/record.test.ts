import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readLock } from './read-lock.ts';
import { parseOwnerHint, validateEndpoints, validateRecord } from './record.ts';
import { ENDPOINTS, IDENTITY, fakeWorld, makeRecord, tempLock, ticks, writeRecordFile } from './lock-fakes.test-support.ts';

describe('validateRecord (readers distrust the record)', () => {
  it('accepts a well-formed record and keeps only known fields', () => {
    const result = validateRecord({ ...makeRecord({ epoch: 'ready', endpoints: ENDPOINTS }), extra: 'x' });
    assert.ok(result.ok);
    assert.deepEqual(result.value, makeRecord({ epoch: 'ready', endpoints: ENDPOINTS }));
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['pid zero', { pid: 0 }, /pid/],
    ['negative pid', { pid: -4 }, /pid/],
    ['fractional pid', { pid: 1.5 }, /pid/],
    ['pid as string', { pid: '42' }, /pid/],
    ['unsafe pid', { pid: 2 ** 53 }, /pid/],
    ['service protocol 0', { serviceProtocolVersion: 0 }, /serviceProtocolVersion/],
    ['protocol as string', { protocolVersion: '1' }, /protocolVersion/],
    ['other runtime', { runtime: 'bun' }, /runtime/],
    ['unknown epoch', { epoch: 'stopping' }, /epoch/],
    ['no holder', { holder: '' }, /holder/],
    ['unknown start kind', { ownerStartedAt: { kind: 'jiffies', n: 1 } }, /ownerStartedAt/],
    ['negative ticks', { ownerStartedAt: { kind: 'linux-ticks', bootTimeMs: 1, ticks: -1 } }, /ticks/],
  ];
  for (const [name, patch, reason] of bad) {
    it(`refuses ${name}`, () => {
      const result = validateRecord({ ...makeRecord(), ...patch });
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.reason, reason);
    });
  }

  it('refuses non-objects', () => {
    for (const v of [null, 7, 'x', [makeRecord()]]) assert.equal(validateRecord(v).ok, false);
  });
});

describe('validateEndpoints', () => {
  it('accepts loopback http URLs with the expected paths', () => {
    for (const host of ['127.0.0.1:6878', '127.1.2.3:1', 'localhost:9', '[::1]:6878']) {
      const e = { board: `http://${host}/`, api: `http://${host}/api`, mcp: `http://${host}/mcp/` };
      assert.ok(validateEndpoints(e).ok, host);
    }
  });

  const refused: Array<[string, Partial<typeof ENDPOINTS>, RegExp]> = [
    ['https', { api: 'https://127.0.0.1:6878/api' }, /api is not http/],
    ['a LAN address', { board: 'http://192.168.1.5:6878/' }, /board is not on loopback/],
    ['a name that starts like loopback', { mcp: 'http://127.0.0.1.evil.example/mcp' }, /mcp is not on loopback/],
    ['the wrong path', { api: 'http://127.0.0.1:6878/' }, /api path/],
    ['a board under a path', { board: 'http://127.0.0.1:6878/x' }, /board path/],
    ['a query', { api: 'http://127.0.0.1:6878/api?token=1' }, /query/],
    ['credentials', { board: 'http://u:p@127.0.0.1:6878/' }, /credentials/],
    ['not a URL', { mcp: 'not a url' }, /mcp is not a URL/],
  ];
  for (const [name, patch, reason] of refused) {
    it(`refuses ${name}`, () => {
      const result = validateEndpoints({ ...ENDPOINTS, ...patch });
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.reason, reason);
    });
  }

  it('makes a record with bad endpoints invalid as a whole', () => {
    const result = validateRecord(makeRecord({ epoch: 'ready', endpoints: { ...ENDPOINTS, api: 'http://10.0.0.1/api' } }));
    assert.equal(result.ok, false);
  });
});

describe('parseOwnerHint (lenient: acquire never displaces a pid it can read)', () => {
  it('reads the pid and build of a record it could not fully validate', () => {
    const hint = parseOwnerHint(JSON.stringify({ ...makeRecord({ buildId: 'muster@9.0.0' }), runtime: 'bun' }));
    assert.equal(hint?.pid, 4242);
    assert.equal(hint?.buildId, 'muster@9.0.0');
    assert.equal(hint?.record, null);
    assert.deepEqual(hint?.start, ticks(500));
  });

  it('is null when no pid can be read', () => {
    for (const text of ['', '{"pid', '{"pid":0}', '[]', 'garbage']) assert.equal(parseOwnerHint(text), null, text);
  });
});

describe('readLock', () => {
  const scene = (record: Parameters<typeof writeRecordFile>[1] | null) => {
    const lock = tempLock();
    if (record !== null) writeRecordFile(lock.lockPath, record);
    const world = fakeWorld();
    world.processes.set(4242, ticks(500));
    return { lock, world };
  };

  it('says absent when there is no lock', () => {
    const { lock, world } = scene(null);
    assert.deepEqual(readLock(lock.lockPath, IDENTITY, world.ops), { state: 'absent' });
    lock.dispose();
  });

  it('says invalid, with the reason, for garbage or a malformed record', () => {
    const { lock, world } = scene('{"half": ');
    const reading = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.equal(reading.state, 'invalid');
    writeRecordFile(lock.lockPath, JSON.stringify(makeRecord({ pid: -1 })));
    const second = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(second.state === 'invalid' && /pid/.test(second.reason));
    lock.dispose();
  });

  it('is usable only once ready with endpoints, current and alive', () => {
    const { lock, world } = scene(makeRecord());
    const starting = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(starting.state === 'record');
    assert.deepEqual([starting.current, starting.alive, starting.usable], [true, true, false]);
    writeRecordFile(lock.lockPath, makeRecord({ epoch: 'ready', endpoints: ENDPOINTS }));
    const ready = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(ready.state === 'record' && ready.usable);
    assert.deepEqual(ready.record.endpoints, ENDPOINTS);
    writeRecordFile(lock.lockPath, makeRecord({ epoch: 'ready' }));
    const noEndpoints = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(noEndpoints.state === 'record' && !noEndpoints.usable);
    lock.dispose();
  });

  it('reports a record of another build but never as usable', () => {
    const { lock, world } = scene(makeRecord({ epoch: 'ready', endpoints: ENDPOINTS, schemaMarker: 'schema-2' }));
    const reading = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(reading.state === 'record');
    assert.deepEqual([reading.current, reading.alive, reading.usable], [false, true, false]);
    assert.equal(reading.record.pid, 4242);
    lock.dispose();
  });

  it('is not alive when the pid is dead or was reused', () => {
    const { lock, world } = scene(makeRecord({ epoch: 'ready', endpoints: ENDPOINTS }));
    world.processes.set(4242, ticks(501));
    const reused = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(reused.state === 'record' && !reused.alive && !reused.usable);
    world.processes.delete(4242);
    const dead = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(dead.state === 'record' && !dead.alive);
    lock.dispose();
  });

  it('ignores boot-time jitter and readings of another kind (counted as the same process)', () => {
    const { lock, world } = scene(makeRecord({ epoch: 'ready', endpoints: ENDPOINTS }));
    world.processes.set(4242, ticks(500, 1_700_000_000_000 + 1000));
    const jitter = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(jitter.state === 'record' && jitter.alive && jitter.usable);
    world.processes.set(4242, { kind: 'instant', ms: 5 });
    const otherKind = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(otherKind.state === 'record' && otherKind.alive);
    lock.dispose();
  });

  it('never throws for a lock it cannot read', () => {
    const { lock, world } = scene(makeRecord());
    const reading = readLock(lock.dir, IDENTITY, world.ops);
    assert.ok(reading.state === 'invalid' && /EISDIR/.test(reading.reason));
    lock.dispose();
  });
});
