/**
 * The lock record on disk: serialisation and the distrustful reader's validation. Validators
 * return a result instead of throwing; a record is accepted only if every field is well-formed,
 * and the returned record carries the known fields only.
 */
import type { LockEndpoints, LockIdentity, LockRecord, OwnerStart } from './types.ts';

export type Validation<T> = { ok: true; value: T } | { ok: false; reason: string };

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isText = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/** Loopback only: the daemon never listens elsewhere, and a record pointing away is forged or broken. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function validateEndpointUrl(name: string, value: unknown, path: string): string | null {
  if (!isText(value, 300)) return `endpoints.${name} is not a URL string`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `endpoints.${name} is not a URL`;
  }
  if (url.protocol !== 'http:') return `endpoints.${name} is not http`;
  if (!isLoopbackHost(url.hostname)) return `endpoints.${name} is not on loopback`;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return `endpoints.${name} carries credentials, a query or a fragment`;
  }
  const accepted = path === '/' ? ['/'] : [path, `${path}/`];
  if (!accepted.includes(url.pathname)) return `endpoints.${name} path is not ${path}`;
  return null;
}

export function validateEndpoints(value: unknown): Validation<LockEndpoints> {
  if (!isObject(value)) return { ok: false, reason: 'endpoints is not an object' };
  const reason =
    validateEndpointUrl('board', value.board, '/') ??
    validateEndpointUrl('api', value.api, '/api') ??
    validateEndpointUrl('mcp', value.mcp, '/mcp');
  if (reason !== null) return { ok: false, reason };
  return { ok: true, value: { board: value.board as string, api: value.api as string, mcp: value.mcp as string } };
}

export function validateOwnerStart(value: unknown): Validation<OwnerStart> {
  if (!isObject(value)) return { ok: false, reason: 'ownerStartedAt is not an object' };
  if (value.kind === 'linux-ticks') {
    const { bootTimeMs, ticks } = value;
    if (typeof bootTimeMs !== 'number' || !Number.isFinite(bootTimeMs) || bootTimeMs < 0) {
      return { ok: false, reason: 'ownerStartedAt.bootTimeMs is not a time' };
    }
    if (typeof ticks !== 'number' || !Number.isSafeInteger(ticks) || ticks < 0) {
      return { ok: false, reason: 'ownerStartedAt.ticks is not a tick count' };
    }
    return { ok: true, value: { kind: 'linux-ticks', bootTimeMs, ticks } };
  }
  if (value.kind === 'instant') {
    if (typeof value.ms !== 'number' || !Number.isFinite(value.ms)) return { ok: false, reason: 'ownerStartedAt.ms is not a time' };
    return { ok: true, value: { kind: 'instant', ms: value.ms } };
  }
  return { ok: false, reason: 'ownerStartedAt.kind is unknown' };
}

/**
 * Structural validation. Protocol numbers must be positive integers (a record from another build
 * with other numbers is still readable, to report who owns the store; it is just not current).
 */
export function validateRecord(value: unknown): Validation<LockRecord> {
  if (!isObject(value)) return { ok: false, reason: 'record is not a JSON object' };
  const v = value;
  if (!isPositiveInt(v.pid)) return { ok: false, reason: 'pid is not a positive safe integer' };
  if (!isPositiveInt(v.serviceProtocolVersion)) return { ok: false, reason: 'serviceProtocolVersion is not a positive integer' };
  if (!isPositiveInt(v.protocolVersion)) return { ok: false, reason: 'protocolVersion is not a positive integer' };
  if (v.runtime !== 'node') return { ok: false, reason: 'runtime is not "node"' };
  if (!isText(v.runtimeVersion)) return { ok: false, reason: 'runtimeVersion is missing' };
  if (!isText(v.buildId)) return { ok: false, reason: 'buildId is missing' };
  if (!isText(v.schemaMarker)) return { ok: false, reason: 'schemaMarker is missing' };
  if (!isText(v.holder)) return { ok: false, reason: 'holder is missing' };
  if (v.epoch !== 'starting' && v.epoch !== 'ready') return { ok: false, reason: 'epoch is neither "starting" nor "ready"' };
  const start = validateOwnerStart(v.ownerStartedAt);
  if (!start.ok) return start;
  const record: LockRecord = {
    serviceProtocolVersion: v.serviceProtocolVersion,
    buildId: v.buildId,
    protocolVersion: v.protocolVersion,
    schemaMarker: v.schemaMarker,
    runtimeVersion: v.runtimeVersion,
    runtime: 'node',
    pid: v.pid,
    epoch: v.epoch,
    holder: v.holder,
    ownerStartedAt: start.value,
  };
  if (v.endpoints !== undefined) {
    const endpoints = validateEndpoints(v.endpoints);
    if (!endpoints.ok) return endpoints;
    record.endpoints = endpoints.value;
  }
  return { ok: true, value: record };
}

export function parseRecordText(text: string): Validation<LockRecord> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON (empty, partial or foreign content)' };
  }
  return validateRecord(value);
}

export function serializeRecord(record: LockRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

export function sameIdentity(a: LockIdentity, b: LockIdentity): boolean {
  return (
    a.serviceProtocolVersion === b.serviceProtocolVersion &&
    a.buildId === b.buildId &&
    a.protocolVersion === b.protocolVersion &&
    a.schemaMarker === b.schemaMarker &&
    a.runtimeVersion === b.runtimeVersion
  );
}

/**
 * What acquire needs to judge an owner, read leniently: a record from another build (or one with
 * a malformed field) still names a pid that must never be displaced while it lives.
 */
export interface OwnerHint {
  pid: number;
  start: OwnerStart | null;
  holder: string | null;
  buildId: string | null;
  /** The full record when it passes validation. */
  record: LockRecord | null;
}

/** Null when the text names no pid at all (empty, partial, foreign): the owner is unreadable. */
export function parseOwnerHint(text: string): OwnerHint | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || !isPositiveInt(value.pid)) return null;
  const start = validateOwnerStart(value.ownerStartedAt);
  const full = validateRecord(value);
  return {
    pid: value.pid,
    start: start.ok ? start.value : null,
    holder: isText(value.holder) ? value.holder : null,
    buildId: isText(value.buildId) ? value.buildId : null,
    record: full.ok ? full.value : null,
  };
}
