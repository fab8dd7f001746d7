/**
 * Forked sessions. `claude --resume S --fork-session` (and older resumes that copied the history into
 * a new file) starts the new transcript with a copy of S's messages — same message and request ids —
 * and Claude Code carries S's running cost into the fork's cost-state records. So that a sum over
 * sessions never counts one API message twice, a message found in several transcripts belongs to the
 * one that started first; the others leave it out, with the cost carried along with it, and name the
 * session they were forked from.
 *
 * Cheap and incremental: summaries only keep each file's first message key and the session its copies
 * name (transcript.ts); transcripts are compared message by message (fork-ledger.ts) only when they
 * share one of those with another transcript.
 */
import type { TokenCounts } from '../../../core/session.ts';
import { addTokens, emptyTokens } from '../../../core/session.ts';
import { ownEntry } from '../../../discovery/own-keys.ts';
import type { CostCheckpoint, Ledger, LedgerCache } from './fork-ledger.ts';
import type { TranscriptSummary } from './transcript.ts';

export interface ForkShare {
  /** The session this one was forked from: the owner of its last shared message, else the one its copies name. */
  forkedFrom: string;
  /** Tokens of messages that an earlier session made: counted there, not here. */
  shared: TokenCounts;
  sharedByModel: Record<string, TokenCounts>;
  /** The parent's running cost at the fork (its cost-state group and total), which the fork's own cost-states include. */
  carried: { group: string; totalUsd: number } | null;
}

export interface ForkCandidate {
  /** Session id (file name). */
  id: string;
  path: string;
  summary: TranscriptSummary;
}

/**
 * Who started first. By the earliest record time; a fork copies its parent's records with their
 * original times, so the two often tie. A tie goes first to the transcript the other names as the
 * source of its copies (requestSessionId), then to the one without copies at all (the original),
 * then to the smaller session id: arbitrary, but stable, so a message is never counted by both
 * and never moves from one session to the other between scans.
 */
function startOrder(a: ForkCandidate, b: ForkCandidate): number {
  const ta = a.summary.firstAt ?? '\uffff';
  const tb = b.summary.firstAt ?? '\uffff';
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (a.summary.copiedFrom === b.id) return 1;
  if (b.summary.copiedFrom === a.id) return -1;
  if ((a.summary.copiedFrom === null) !== (b.summary.copiedFrom === null)) return a.summary.copiedFrom === null ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Groups of two or more transcripts linked by a shared first message or by a copy naming the other. */
function familiesOf(cands: readonly ForkCandidate[]): ForkCandidate[][] {
  const up = new Map<string, string>();
  const find = (id: string): string => {
    let r = id;
    while (up.get(r) !== r) r = up.get(r) ?? r;
    up.set(id, r);
    return r;
  };
  const union = (a: string, b: string): void => void up.set(find(a), find(b));
  for (const c of cands) up.set(c.id, c.id);
  const byRoot = new Map<string, string>();
  for (const c of cands) {
    const root = c.summary.rootKey;
    if (root !== null) {
      const other = byRoot.get(root);
      if (other === undefined) byRoot.set(root, c.id);
      else union(c.id, other);
    }
    const from = c.summary.copiedFrom;
    if (from !== null && from !== c.id && up.has(from)) union(c.id, from);
  }
  const groups = new Map<string, ForkCandidate[]>();
  for (const c of cands) {
    const r = find(c.id);
    const group = groups.get(r);
    if (group) group.push(c);
    else groups.set(r, [c]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/**
 * The cost-state Claude Code restored when the fork was made from `owner` after its message `key`:
 * the last one written before the owner's next message.
 */
function carriedAt(owner: Ledger, key: string): CostCheckpoint | null {
  const upTo = (owner.position.get(key) ?? -1) + 1;
  let best: CostCheckpoint | null = null;
  for (const c of owner.costs) {
    if (c.after > upTo) break;
    best = c;
  }
  return best;
}

function shareOf(ledger: Ledger, owners: Map<string, { id: string; ledger: Ledger }>): ForkShare | null {
  const shared = emptyTokens();
  const sharedByModel: Record<string, TokenCounts> = {};
  let last: { owner: { id: string; ledger: Ledger }; key: string } | null = null;
  for (const m of ledger.messages) {
    const owner = owners.get(m.key);
    if (!owner) continue;
    addTokens(shared, m.usage);
    addTokens(ownEntry(sharedByModel, m.model, emptyTokens), m.usage);
    last = { owner, key: m.key };
  }
  if (!last) return null;
  const c = carriedAt(last.owner.ledger, last.key);
  return { forkedFrom: last.owner.id, shared, sharedByModel, carried: c ? { group: c.group, totalUsd: c.totalUsd } : null };
}

/**
 * What each forked session shares with earlier ones, by session id; sessions that share nothing are
 * absent. With `focus`, only that session's family is compared (one session asked for by id).
 * Candidates have distinct ids.
 */
export function resolveForks(cands: readonly ForkCandidate[], ledgers: LedgerCache, focus?: string): Map<string, ForkShare> {
  const out = new Map<string, ForkShare>();
  for (const family of familiesOf(cands)) {
    if (focus !== undefined && !family.some((c) => c.id === focus)) continue;
    family.sort(startOrder);
    const owners = new Map<string, { id: string; ledger: Ledger }>();
    for (const c of family) {
      const ledger = ledgers.of(c.path);
      if (!ledger) continue;
      const share = shareOf(ledger, owners);
      if (share) out.set(c.id, share);
      for (const m of ledger.messages) if (!owners.has(m.key)) owners.set(m.key, { id: c.id, ledger });
    }
  }
  // A fork whose parent's transcript is gone still names it; with nothing to compare, it keeps its counts.
  for (const c of cands) {
    const from = c.summary.copiedFrom;
    if (!out.has(c.id) && from !== null && from !== c.id && (focus === undefined || focus === c.id)) {
      out.set(c.id, { forkedFrom: from, shared: emptyTokens(), sharedByModel: {}, carried: null });
    }
  }
  return out;
}
