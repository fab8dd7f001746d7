/**
 * The store's schema version, as a constant the CLI can read without loading every migration's SQL
 * (it publishes and checks `schemaMarker` on each call). Kept equal to the last migration's version
 * by migrations.test.ts.
 */
export const SCHEMA_VERSION = 13;

/** The store schema marker published in the lock record (`schemaMarker`: a daemon of another schema is never used). */
export const SCHEMA_MARKER = `muster-schema-${SCHEMA_VERSION}`;
