export type { Store, SettingsRepository } from './types.ts';
export { DEFAULT_INDEX_FLUSH_INTERVAL_MS, openSqliteStore, type SqliteStoreOptions } from './sqlite.ts';
export { SCHEMA_MARKER, MIGRATIONS, migrate, type Migration } from './migrations.ts';
export { SETTINGS, defaultSettings, validateSettingsPatch, type Settings, type SettingValue } from './settings.ts';
export { createSqliteActionsRepository, type ActionsRepository } from './actions.ts';
export { createFsPackFiles } from './board-files.ts';
export { searchDbPathOf } from './search-db.ts';
export type { SearchThreadSpawn } from './search-thread/client.ts';
