/**
 * The corpora bench/cold-vs-ccusage.ts reads with both tools, by harness: where each one's home is
 * named in the environment (the same directory for Muster and for ccusage), an empty home, and a
 * generated history. Claude, Codex and pi get transcripts (~468 MiB in 800 files by default); OpenCode
 * gets a store of BENCH_OC_SESSIONS top-level sessions (default 2,000) of 50 messages each, as
 * bench/discovery-cold-opencode.ts reads.
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateClaudeCorpus } from './claude-corpus.ts';
import { generateCodexCorpus } from './codex-corpus.ts';
import { generateOpenCodeCorpus } from './opencode-corpus.ts';
import { generatePiCorpus } from './pi-corpus.ts';

export type PeerHarness = 'claude' | 'codex' | 'pi' | 'opencode';
export const PEER_HARNESSES: readonly PeerHarness[] = ['claude', 'codex', 'pi', 'opencode'];

/**
 * The variables that name `dir` as the harness's home. pi: Muster reads PI_CODING_AGENT_DIR (as pi
 * does), ccusage PI_AGENT_DIR. OpenCode: both read `$XDG_DATA_HOME/opencode/opencode.db`.
 */
export function homeVars(harness: PeerHarness, dir: string): NodeJS.ProcessEnv {
  switch (harness) {
    case 'claude': return { CLAUDE_CONFIG_DIR: dir };
    case 'codex': return { CODEX_HOME: dir };
    case 'pi': return { PI_CODING_AGENT_DIR: dir, PI_AGENT_DIR: dir };
    case 'opencode': return { XDG_DATA_HOME: dir };
  }
}

/** An empty home: the folder each tool looks in, with nothing in it. */
export function makeEmptyHome(harness: PeerHarness, dir: string): void {
  const inner = { claude: 'projects', codex: 'sessions', pi: 'sessions', opencode: 'opencode' }[harness];
  mkdirSync(join(dir, inner), { recursive: true });
}

export interface PeerCorpus {
  /** Sessions Muster must list (top-level ones for OpenCode). */
  sessions: number;
  bytes: number;
  /** "800 transcripts" or "2000 sessions (a store)". */
  what: string;
}

export function generatePeerCorpus(harness: PeerHarness, dir: string, totalBytes: number, files: number): PeerCorpus {
  if (harness === 'opencode') {
    const c = generateOpenCodeCorpus({ dataDir: join(dir, 'opencode'), sessions: Number(process.env.BENCH_OC_SESSIONS ?? 2000), messages: 50 });
    return { sessions: c.sessions, bytes: statSync(c.dbPath).size, what: `${c.sessions} sessions of ${c.messages / c.sessions} messages in one store (${c.parts} parts)` };
  }
  const c = harness === 'claude'
    ? generateClaudeCorpus({ home: dir, totalBytes, files })
    : harness === 'codex'
      ? generateCodexCorpus({ home: dir, totalBytes, files })
      : generatePiCorpus({ agentDir: dir, totalBytes, files });
  return { sessions: c.files.length, bytes: c.bytes, what: `${c.files.length} transcripts` };
}
