/**
 * Test doubles for the lock's unit tests: a fake process world (liveness, start times, sleeps)
 * over the real filesystem of a temp dir. Kept here rather than in test/fakes/ because only this
 * folder uses them.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultLockOperations } from './operations.ts';
import { serializeRecord } from './record.ts';
import type { LockIdentity, LockOperations, LockRecord, OwnerStart } from './types.ts';

export const IDENTITY: LockIdentity = {
  serviceProtocolVersion: 1,
  buildId: 'muster@0.1.0',
  protocolVersion: 1,
  schemaMarker: 'schema-1',
  runtimeVersion: 'v20.19.0',
};

export const ENDPOINTS = {
  board: 'http://127.0.0.1:6878/',
  api: 'http://127.0.0.1:6878/api',
  mcp: 'http://127.0.0.1:6878/mcp',
};

/** Our pid in unit tests; never a real process of the test runner. */
export const OUR_PID = 1000;

export const ticks = (n: number, bootTimeMs = 1_700_000_000_000): OwnerStart => ({ kind: 'linux-ticks', bootTimeMs, ticks: n });

/** A temp dir holding `muster.db.lock`; `dispose` removes it. */
export function tempLock(): { dir: string; lockPath: string; names(): string[]; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'muster-lock-'));
  return {
    dir,
    lockPath: join(dir, 'muster.db.lock'),
    names: () => readdirSync(dir).sort(),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function makeRecord(overrides: Partial<LockRecord> = {}): LockRecord {
  return {
    ...IDENTITY,
    runtime: 'node',
    pid: 4242,
    epoch: 'starting',
    holder: 'other-holder',
    ownerStartedAt: ticks(500),
    ...overrides,
  };
}

export function writeRecordFile(path: string, record: LockRecord | string): string {
  const text = typeof record === 'string' ? record : serializeRecord(record);
  writeFileSync(path, text, { mode: 0o600 });
  return text;
}

export interface FakeWorld {
  /** Live processes and their start times now. */
  processes: Map<number, OwnerStart>;
  /** Every sleep requested, in ms. */
  sleeps: number[];
  /** Runs on each sleep, before it resolves (to let "another process" act meanwhile). */
  onSleep: ((ms: number) => void) | undefined;
  ops: LockOperations;
}

/** Real fs of the temp dir; liveness, start times and sleep faked. `OUR_PID` is alive at ticks 100. */
export function fakeWorld(fs: Partial<LockOperations> = {}): FakeWorld {
  const world: FakeWorld = {
    processes: new Map([[OUR_PID, ticks(100)]]),
    sleeps: [],
    onSleep: undefined,
    ops: defaultLockOperations,
  };
  world.ops = {
    ...defaultLockOperations,
    liveness: (pid) => (world.processes.has(pid) ? 'alive' : 'dead'),
    startTime: (pid) => world.processes.get(pid) ?? null,
    sleep: async (ms) => {
      world.sleeps.push(ms);
      world.onSleep?.(ms);
    },
    ...fs,
  };
  return world;
}

/** A Node-style errno error, as node:fs throws. */
export function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: ${syscall} '${path}'`);
  e.code = code;
  e.syscall = syscall;
  e.path = path;
  return e;
}
