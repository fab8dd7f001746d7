/**
 * Who this build is, as published in the lock record and /api/health.
 * A daemon whose identity differs from the CLI's is reported, never used or displaced.
 */
// A constant of its own, not the store's index nor its migrations: every CLI command loads this module.
import { SCHEMA_MARKER } from '../store/schema-version.ts';

/** Kept equal to package.json's version by identity.test.ts. */
export const VERSION = '0.1.0';
/** Version of the lock-record / health protocol between CLI and daemon. */
export const SERVICE_PROTOCOL_VERSION = 1;
/** Version of the HTTP API. */
export const PROTOCOL_VERSION = 1;

export interface BuildIdentity {
  serviceProtocolVersion: number;
  buildId: string;
  protocolVersion: number;
  schemaMarker: string;
  runtimeVersion: string;
}

/** `MUSTER_BUILD_ID` overrides the build id; tests use it to stand up a "foreign build". */
export function buildIdentity(env: NodeJS.ProcessEnv = process.env): BuildIdentity {
  return {
    serviceProtocolVersion: SERVICE_PROTOCOL_VERSION,
    buildId: env.MUSTER_BUILD_ID || `muster@${VERSION}`,
    protocolVersion: PROTOCOL_VERSION,
    schemaMarker: SCHEMA_MARKER,
    runtimeVersion: process.version,
  };
}
