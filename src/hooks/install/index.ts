export { createInstaller, MalformedConfig, type FileEdit, type EditResult, type Installer } from './engine.ts';
export { targetFor, claudeDir, codexHome, CODEX_HOOK_EVENTS, type Target, type TargetContext } from './targets.ts';
export { jsonHooksEdit, ownedFileEdit } from './json-hooks.ts';
export { codexNotifyEdit, userNotifyPresent } from './toml-notify.ts';
