/**
 * Builds every harness's session source (the registry's adapters) with its real ports: the process
 * table, the store's transcript index, one shared git reader, the hook sightings, and the harness's
 * homes resolved from the daemon's environment.
 */
import type { SessionSource, TranscriptIndex } from '../discovery/contract.ts';
import type { ProcPort } from '../discovery/proc/types.ts';
import { createProc, shareSnapshotPerTurn } from '../discovery/proc/index.ts';
import { createGitReader } from '../discovery/git/index.ts';
import { ADAPTERS } from '../harnesses/registry.ts';
import type { HookSightings } from '../harnesses/adapter.ts';
import type { ColdIndexing } from '../discovery/index-pool/index.ts';

export interface SourcesOptions {
  env: NodeJS.ProcessEnv;
  index: TranscriptIndex;
  proc?: ProcPort;
  /** What the hooks reported (the hook service records it). */
  sightings?: HookSightings;
  /** Reads a first start's unread transcripts in worker threads. Default: none. */
  cold?: ColdIndexing;
}

export async function createSources(opts: SourcesOptions): Promise<{ sources: SessionSource[]; proc: ProcPort }> {
  const { env, index } = opts;
  // A rescan lists every source in one turn: they share one read of the process table.
  const proc = shareSnapshotPerTurn(opts.proc ?? createProc());
  const git = createGitReader({ ttlMs: 2000 });
  const sources = await Promise.all(ADAPTERS.map((a) => a.createSource({ env, homes: a.homes(env), proc, index, git, sightings: opts.sightings, cold: opts.cold })));
  return { sources, proc };
}
