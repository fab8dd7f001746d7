// The fleet: every host's agents on one board through a shared PostgreSQL. Each host keeps its SQLite
// as the truth for its own sessions, pages and goals and mirrors them through an outbox; other hosts'
// records arrive through LISTEN/NOTIFY; commands on another host's sessions go through a command table.
export { createFleetLink, type FleetLink, type FleetLinkOptions, type FleetStatus } from './link.ts';
export { pgDriver, type FleetDriver, type FleetDb, type PgDriverOptions } from './pg-port.ts';
export { fleetFiles, readFleetConfig, writeFleetConfig, removeFleetConfig, loadOrCreateHostId, defaultHostName, type FleetConfig, type FleetFiles } from './config.ts';
export { checkFleetUrl, redactFleetUrl, scrubSecret, type CheckedUrl } from './url.ts';
export { migrateFleetSchema, FLEET_SCHEMA_VERSION, FLEET_MIGRATIONS } from './schema.ts';
export { COMMAND_WAIT_MS } from './commands.ts';
export { SILENCE_MS, HEARTBEAT_MS } from './liveness.ts';
export type { CurrentRecords } from './capture.ts';
export { COMMAND_KINDS, isCommandKind, isHostId, isHostName, type CommandKind, type CommandAnswer, type FleetHost, type OutboxRepository, type RecordKind, type Change, type OutboxEntry } from './types.ts';
