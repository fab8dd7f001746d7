/**
 * Shapes of the single-instance lock. The lock record is the
 * one file every Muster process reads to learn who owns the store and where it listens.
 */

/**
 * An owner's process start time, tagged with how it was read. Two readings are only compared
 * when they are of the same kind; on Linux only the ticks are compared (the boot time is derived
 * from wall-clock arithmetic in the kernel and may jitter by a second).
 */
export type OwnerStart =
  | { kind: 'linux-ticks'; bootTimeMs: number; ticks: number }
  | { kind: 'instant'; ms: number };

/** Where the ready daemon listens; all loopback http URLs. */
export interface LockEndpoints {
  /** The board, path `/`, e.g. `http://127.0.0.1:6878/`. */
  board: string;
  /** The API, path `/api`, e.g. `http://127.0.0.1:6878/api`. */
  api: string;
  /** The MCP endpoint, path `/mcp`, e.g. `http://127.0.0.1:6878/mcp`. */
  mcp: string;
}

/** What makes two daemons interchangeable: a record with another identity is reported, never used. */
export interface LockIdentity {
  /** Version of this lock/service protocol; a positive integer. */
  serviceProtocolVersion: number;
  /** `muster@<version>`. */
  buildId: string;
  /** HTTP/API protocol version; a positive integer. */
  protocolVersion: number;
  /** Store schema marker. */
  schemaMarker: string;
  /** `process.version` of the owner. */
  runtimeVersion: string;
}

export interface LockRecord extends LockIdentity {
  runtime: 'node';
  pid: number;
  /** 'starting' until the daemon has published its endpoints. */
  epoch: 'starting' | 'ready';
  /** Random token of this acquisition: only its holder may publish into or remove the lock. */
  holder: string;
  ownerStartedAt: OwnerStart;
  /** Present once ready. */
  endpoints?: LockEndpoints;
}

/**
 * Every touch of the OS the lock makes. Each field has a real default (operations.ts); tests
 * replace some to simulate pid reuse, foreign builds, races and failures without real processes.
 * File operations are synchronous and throw Node errno errors (`err.code`) like `node:fs` does.
 */
export interface LockOperations {
  /**
   * Default: `process.kill(pid, 0)`; only ESRCH means 'dead' (EPERM means it exists), and a zombie
   * (/proc/<pid>/stat state Z or X) is 'dead' too. Must not throw.
   */
  liveness(pid: number): 'alive' | 'dead';
  /** Default: realStartTime (start-time.ts). Start time of `pid` now, null if unreadable. Must not throw. */
  startTime(pid: number): OwnerStart | null;
  /** Default: 12 random base64url characters (crypto.randomBytes). Must not contain '.'. */
  randomToken(): string;
  /** Default: a setTimeout promise. */
  sleep(ms: number): Promise<void>;
  /** Default: fs.writeFileSync with flag 'wx' (exclusive create) and mode 0600. */
  writeFile(path: string, data: string): void;
  /** Default: fs.linkSync; throws EEXIST when `newPath` exists. */
  link(existingPath: string, newPath: string): void;
  /** Default: fs.renameSync (atomic replace on the same filesystem). */
  rename(from: string, to: string): void;
  /** Default: fs.unlinkSync. */
  unlink(path: string): void;
  /** Default: fs.readFileSync as utf8. */
  readFile(path: string): string;
  /** Default: fs.readdirSync (names only). */
  readdir(dir: string): string[];
}

export interface LockHandle {
  readonly path: string;
  /** The record as last written by this handle. */
  readonly record: LockRecord;
  /**
   * Write-then-rename the record with endpoints and epoch 'ready'. First checks the lock on disk
   * still carries our holder, else throws MusterError('lock_lost') and the caller stops serving.
   * Throws MusterError('invalid_argument') for endpoints a reader would refuse.
   */
  publish(endpoints: LockEndpoints): void;
  /** True while the lock file on disk still carries our holder token. Never throws. */
  stillHeld(): boolean;
  /**
   * Removes the lock only if it still carries our holder token. Idempotent; a lock that is gone
   * or now someone else's is left as it is. Throws lock_io only when the file cannot be read.
   */
  release(): void;
}

export interface AcquireLockOptions {
  /** `<db>.lock`, next to muster.db. Its directory must exist. */
  lockPath: string;
  identity: LockIdentity;
  /** Pid recorded as owner. Default: process.pid. */
  pid?: number;
  ops?: Partial<LockOperations>;
  /** Bound on claim attempts. Default: 5. */
  maxAttempts?: number;
}

export type LockReading =
  | { state: 'absent' }
  | { state: 'invalid'; reason: string }
  | {
      state: 'record';
      record: LockRecord;
      /** Same identity as ours. */
      current: boolean;
      /** Pid alive and its start time agrees (or cannot be compared). */
      alive: boolean;
      /** current && alive && epoch === 'ready' && endpoints present (and valid). */
      usable: boolean;
    };
