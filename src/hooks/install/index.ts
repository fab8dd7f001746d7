export { createInstaller, MalformedConfig, type FileEdit, type EditResult, type Installer } from './engine.ts';
export { ownedTarget, readConfigText, STATUS_MARKER, type InstallTarget, type StatusAssetName, type TargetContext } from './target.ts';
export { jsonHooksEdit, ownedFileEdit } from './json-hooks.ts';
