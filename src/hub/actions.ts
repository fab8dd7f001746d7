/**
 * Session actions: focus, resume and end, for sessions Muster did not launch too. Ids are checked
 * first; only a verified live process is signalled, with its harness's clean signal.
 * The hub knows sessions; panes arrive through the PaneOps port (tmux/herdr adapters wired in the
 * composition root), the action log through ActionLog (the store). Every action is recorded — who,
 * what, outcome — and published as `session.action.recorded`, failures included.
 */
import { MusterError, isMusterError } from '../errors/index.ts';
import { createActionRecorder, type ActionRecorder } from './action-log.ts';
import type { EventBus } from '../events/index.ts';
import { isSessionId } from '../harnesses/registry.ts';
import type { Harness, PaneRef, Session } from '../core/session.ts';
import { shellQuote } from '../core/shell-quote.ts';
import type { Hub } from './hub.ts';

/** Who acted: the board, the CLI, an API or MCP client, or another host of the fleet (its command, run here). */
export type Actor = 'board' | 'cli' | 'api' | 'mcp' | 'fleet';
export const ACTORS: readonly Actor[] = ['board', 'cli', 'api', 'mcp', 'fleet'];
export type ActionKind = 'focus' | 'resume' | 'end' | 'send';

export interface ActionRecord {
  /** `act_` + time-sortable id. */
  id: string;
  /** ISO time the action finished. */
  at: string;
  actor: Actor;
  action: ActionKind;
  sessionId: string;
  harness: Harness | null;
  /** `focused`, `resumed`, `printed`, `already_live`, `ended`, `sent`, or the error code that stopped it. */
  outcome: string;
  /** Facts of the outcome (pane, argv, signal, pid, message). */
  detail: Record<string, unknown>;
}

/** Where records go (the store's action log). Append must not lose a record silently: it may reject. */
export interface ActionLog {
  append(record: ActionRecord): Promise<void>;
}

export type PaneFocus =
  | { outcome: 'focused'; pane: PaneRef; client: string | null }
  | { outcome: 'no_client'; pane: PaneRef; hint: string }
  | { outcome: 'pane_not_found'; pane: PaneRef }
  | { outcome: 'unsupported'; pane: PaneRef; reason: string };

/** What actions need of the pane managers (src/panes implements it). */
export interface PaneOps {
  /** The pane of the first of `pids` that has one, from the last map (cheap; may be stale). */
  peek(pids: readonly number[]): PaneRef | undefined;
  /** The same, from the cached map when it knows the pids, else (or with `fresh`) from a map rebuilt after this call. */
  locate(pids: readonly number[], fresh?: boolean): Promise<PaneRef | undefined>;
  focus(pane: PaneRef): Promise<PaneFocus>;
  /** The manager that would open a new pane now (herdr where it runs, else tmux), or null. */
  opener(): Promise<{ kind: string; open(req: { cwd: string; argv: string[]; label: string }): Promise<{ pane: PaneRef; pid: number | null }> } | null>;
}

export interface ActionsOptions {
  hub: Hub;
  bus: EventBus;
  log: ActionLog;
  /** null when no pane manager is configured at all. */
  panes: PaneOps | null;
  /** Is `path` an existing directory? (fs lives in the composition root.) */
  isDirectory(path: string): boolean;
  /** Resolves once the hub's first listing is done; actions wait for it. Default: ready at once. */
  ready?: () => Promise<void>;
  clock?: () => number;
  logLine?(line: string): void;
  /** Where actions are recorded. Default: a recorder over `log` and `bus` (share one with other actions, e.g. send). */
  record?: ActionRecorder;
}

export type FocusAnswer = { outcome: 'focused'; pane: PaneRef; client: string | null };
export type ResumeAnswer =
  | { outcome: 'resumed'; pane: PaneRef; pid: number | null; argv: string[]; cwd: string; manager: string }
  | { outcome: 'printed'; argv: string[]; cwd: string }
  | { outcome: 'already_live'; focus: { outcome: string; pane: PaneRef | null; message?: string } };
export type EndAnswer = { outcome: 'ended'; signal: string; pid: number };

/**
 * Which process of a session an action is for: `pid` must be one of the session's live pids
 * (`process_not_found` otherwise). Without it, the whole session, as the source sees it.
 */
export interface ProcessChoice {
  pid?: number;
}

export interface Actions {
  focus(sessionId: string, actor: Actor, options?: ProcessChoice): Promise<FocusAnswer>;
  /** `print`: answer the argv and cwd instead of opening a pane. */
  resume(sessionId: string, actor: Actor, options?: { print?: boolean }): Promise<ResumeAnswer>;
  end(sessionId: string, actor: Actor, options?: ProcessChoice): Promise<EndAnswer>;
  /** The session with `pane` (and each process's) filled from the pid → pane map when it carries none (registry wins). */
  decorate(session: Session): Session;
}

/** Window label from a title: one line, trimmed, at most 40 characters; never interpreted. */
export function paneLabel(title: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters have no place in a label
  const clean = title.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...(clean || fallback)];
  return chars.length <= 40 ? chars.join('') : chars.slice(0, 40).join('').trimEnd();
}

/** The command for a person to type (display only; Muster itself never runs a shell). */
export function shellLine(cwd: string, argv: string[]): string {
  return `cd ${shellQuote(cwd)} && ${argv.map(shellQuote).join(' ')}`;
}

export function createActions(opts: ActionsOptions): Actions {
  const record: ActionRecorder = opts.record ?? createActionRecorder({ log: opts.log, bus: opts.bus, clock: opts.clock, logLine: opts.logLine });

  async function lookup(sessionId: string): Promise<Session> {
    if (!isSessionId(sessionId)) throw new MusterError('invalid_id', 'not a session id (a UUID, or ses_ followed by 26 letters and digits)');
    await opts.ready?.();
    const session = opts.hub.get(sessionId);
    if (!session) throw new MusterError('session_not_found', `no session ${sessionId}`);
    // Each source checks its own exact format before the id goes anywhere near a command.
    if (opts.hub.source(session.harness)?.isValidId(sessionId) === false) throw new MusterError('invalid_id', `not a ${session.harness} session id`);
    return session;
  }

  const pidsOf = (s: Session): number[] => [...new Set([...(s.pid ? [s.pid] : []), ...s.pids])];

  /** The registry's pane wins; a socket it does not name is filled from the map when they agree. */
  async function paneFor(known: PaneRef | null, pids: number[], fresh = false): Promise<PaneRef | undefined> {
    if (!opts.panes) return known ?? undefined;
    if (known && known.socket) return known;
    const mapped = await opts.panes.locate(pids, fresh);
    if (known) return mapped && mapped.manager === known.manager && mapped.id === known.id ? mapped : known;
    return mapped;
  }

  /** The process of a live session that `pid` names, with the pane its source knows (if any). */
  function chosen(s: Session, pid: number): { pane: PaneRef | null; pids: number[] } {
    if (!Number.isSafeInteger(pid) || pid <= 0) throw new MusterError('invalid_argument', 'pid must be a positive integer');
    const p = s.processes ? s.processes.find((x) => x.pid === pid) : pidsOf(s).includes(pid) ? { pane: null } : undefined;
    if (!p) {
      const known = s.processes ? s.processes.map((x) => x.pid) : pidsOf(s);
      throw new MusterError('process_not_found', `process ${pid} does not have session ${s.id} open (its processes: ${known.join(', ') || 'none'})`, { details: { pids: known } });
    }
    return { pane: p.pane, pids: [pid] };
  }

  async function focusSession(s: Session, pid?: number): Promise<FocusAnswer> {
    if (!s.live) throw new MusterError('session_not_live', `session ${s.id} is not running; resume it instead`);
    const target = pid === undefined ? { pane: s.pane, pids: pidsOf(s) } : chosen(s, pid);
    if (!opts.panes) throw new MusterError('no_pane_manager', 'no pane manager (tmux or herdr) is configured');
    const pane = await paneFor(target.pane, target.pids);
    const what = pid === undefined ? `session ${s.id}` : `process ${pid} of session ${s.id}`;
    if (!pane) throw new MusterError('no_pane', `${what} is not running in a tmux or herdr pane`);
    let r = await opts.panes.focus(pane);
    if (r.outcome === 'pane_not_found') {
      // The cached map was stale (the pane closed, the session moved on): look again, once.
      const again = await paneFor(target.pane, target.pids, true);
      if (again && (again.id !== pane.id || again.socket !== pane.socket)) r = await opts.panes.focus(again);
    }
    switch (r.outcome) {
      case 'focused':
        return { outcome: 'focused', pane: r.pane, client: r.client };
      case 'no_client':
        throw new MusterError('no_client', `no terminal is attached to show pane ${r.pane.id}; attach with: ${r.hint}`, { details: { pane: r.pane, hint: r.hint } });
      case 'pane_not_found':
        throw new MusterError('no_pane', `pane ${r.pane.id} no longer exists`, { details: { pane: r.pane } });
      default:
        throw new MusterError('unsupported', r.reason, { details: { pane: r.pane } });
    }
  }

  return {
    focus(sessionId, actor, options = {}) {
      return record(actor, 'focus', sessionId, async (h) => {
        const s = await lookup(sessionId);
        h(s.harness);
        return focusSession(s, options.pid);
      });
    },

    resume(sessionId, actor, options = {}) {
      return record(actor, 'resume', sessionId, async (h): Promise<ResumeAnswer> => {
        const s = await lookup(sessionId);
        h(s.harness);
        if (s.live) {
          // A live session is never started twice: focus it instead and say how that went.
          try {
            const f = await focusSession(s);
            return { outcome: 'already_live', focus: { outcome: f.outcome, pane: f.pane } };
          } catch (e) {
            if (!isMusterError(e)) throw e;
            return { outcome: 'already_live', focus: { outcome: e.code, pane: s.pane, message: e.message } };
          }
        }
        const argv = opts.hub.source(s.harness)?.resumeArgv(s.id) ?? null;
        if (!argv || argv.length === 0) throw new MusterError('unsupported', `${s.harness} session ${s.id} cannot be resumed`);
        const cwd = s.cwd;
        if (cwd === null || cwd === '') {
          // A transcript that records no directory yet (and none of its project folder does).
          throw new MusterError('cwd_unknown', `the session's directory is unknown, so it cannot be resumed here; run ${argv.join(' ')} in its directory`, { details: { argv, cwd: null } });
        }
        if (!cwd.startsWith('/') || !opts.isDirectory(cwd)) {
          throw new MusterError('cwd_missing', `the session's directory ${JSON.stringify(cwd)} no longer exists`, { details: { argv, cwd } });
        }
        if (options.print) return { outcome: 'printed', argv, cwd };
        const opener = opts.panes ? await opts.panes.opener() : null;
        if (!opener) {
          const command = shellLine(cwd, argv);
          throw new MusterError('no_pane_manager', `no tmux or herdr server is running; run it by hand: ${command}`, { details: { argv, cwd, command } });
        }
        const opened = await opener.open({ cwd, argv, label: paneLabel(s.title, `${s.harness} ${s.id.slice(0, 8)}`) });
        return { outcome: 'resumed', pane: opened.pane, pid: opened.pid, argv, cwd, manager: opener.kind };
      });
    },

    end(sessionId, actor, options = {}) {
      return record(actor, 'end', sessionId, async (h): Promise<EndAnswer> => {
        const s = await lookup(sessionId);
        h(s.harness);
        if (!s.live) throw new MusterError('not_running', `session ${s.id} is not running`);
        const pid = options.pid;
        if (pid !== undefined) {
          chosen(s, pid);
          // A source that lists no processes ends the whole session: fine when that is the one process.
          if (!s.processes && pidsOf(s).length > 1) throw new MusterError('unsupported', `${s.harness} ends session ${s.id} as a whole, not one of its processes; end it without a pid`);
        }
        // A guessed assignment (e.g. a Codex TUI matched by directory) is never signalled.
        if (!s.canEnd) throw new MusterError('unsupported', `session ${s.id}'s process is not verified to be ${s.harness}; end it in its own terminal`);
        const source = opts.hub.source(s.harness);
        if (!source) throw new MusterError('unsupported', `no ${s.harness} source`);
        const r = await source.end(s.id, s.processes && pid !== undefined ? { pid } : undefined);
        if (r.outcome === 'not_running') throw new MusterError('not_running', r.reason);
        if (r.outcome === 'unsupported') throw new MusterError('unsupported', r.reason);
        void opts.hub.refresh(s.harness).catch(() => {});
        return { outcome: 'ended', signal: r.signal, pid: r.pid };
      });
    },

    decorate(session) {
      if (!session.live || !opts.panes) return session;
      const panes = opts.panes;
      let out = session;
      if (!out.pane) {
        const pane = panes.peek(pidsOf(out));
        if (pane) out = { ...out, pane };
      }
      const before = out.processes;
      if (before?.some((p) => !p.pane)) {
        const processes = before.map((p) => {
          const pane = p.pane ? undefined : panes.peek([p.pid]);
          return pane ? { ...p, pane } : p;
        });
        if (processes.some((p, i) => p !== before[i])) out = { ...out, processes };
      }
      return out;
    },
  };
}
