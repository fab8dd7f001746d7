/**
 * What `muster hooks install` edits for one harness (each adapter's `installTarget`), and how to tell
 * whether the harness has accepted it. The edits themselves are pure; the engine does the I/O.
 */
import { readRegularText } from '../../discovery/regular-file/index.ts';
import type { HarnessHomes } from '../../harnesses/adapter.ts';
import { ownedFileEdit } from './json-hooks.ts';
import type { FileEdit } from './engine.ts';

export interface TargetContext {
  env: NodeJS.ProcessEnv;
  /** The harness's homes, from its adapter. */
  homes: HarnessHomes;
  /** argv that runs `muster hook` (absolute node + entry point). */
  hookArgv: string[];
  /** The built status plugin or extension an owned file holds (it starts with STATUS_MARKER). */
  asset(name: StatusAssetName): string;
}

/** The in-process status reporters Muster ships as built files (src/harnesses/status-assets/). */
export type StatusAssetName = 'pi-extension' | 'omp-extension' | 'opencode-plugin';

export interface InstallTarget {
  edits: FileEdit[];
  /** What earlier versions installed and this one replaces: removed by install and uninstall alike. */
  retired?: FileEdit[];
  /** Whether the harness takes the installed config (null: cannot tell), with a hint when not. */
  accepted(): { accepted: boolean | null; detail: string };
}

/** First line of every file Muster owns in another program's config, so install/uninstall/status recognise their own. */
export const STATUS_MARKER = '// muster-status: written by `muster`; `muster hooks uninstall` removes it';

/** Config files larger than this are not Muster's to read. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * A config file's text, or null when absent, unreadable or not a regular file (a FIFO named like a
 * config file must not hang the CLI). A status check never throws.
 */
export function readConfigText(path: string): string | null {
  try {
    return readRegularText(path, MAX_CONFIG_BYTES);
  } catch {
    return null;
  }
}

/** A file Muster owns outright (an extension or plugin): present and marked = installed. */
export function ownedTarget(path: string, content: string, detail: string): InstallTarget {
  return {
    edits: [ownedFileEdit(path, content, STATUS_MARKER)],
    accepted: () => ({ accepted: readConfigText(path)?.startsWith(STATUS_MARKER) ?? false, detail }),
  };
}
