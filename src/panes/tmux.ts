/**
 * tmux adapter: every call is `tmux -S <socket> <argv…>` through execFile (no shell), bounded in time.
 * Commands started in a new window are passed as separate arguments after `--`, which tmux execs
 * directly; a one-word argv would be handed to `sh -c` by tmux, so it is prefixed with `env`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { FocusResult, OpenRequest, OpenResult, PaneInfo, PaneManager } from './types.ts';
import { createPaneListCache } from './tmux-pane-cache.ts';
import { resolveTmuxSocket } from './tmux-socket.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs one tmux command (argv after `-S socket`), `input` on its stdin; resolves stdout, rejects with stderr. */
export type TmuxExec = (args: string[], input?: string) => Promise<string>;

export interface TmuxPanesOptions {
  /** Server socket. Default: from `TMUX`, else tmux's default socket for this uid. */
  socket?: string;
  /** Environment to resolve the socket from. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Session that resumed windows open in (created on demand). Default: 'muster'. */
  sessionName?: string;
  /** Bound on one tmux command, ms. Default: 5000. */
  timeoutMs?: number;
  /** Command runner. Default: execFile('tmux', ['-S', socket, ...args]). */
  exec?: TmuxExec;
  /**
   * Pause between a typed paste and its Enter, ms. Default: 250. Gemini CLI 0.61 takes an Enter that
   * comes within 40 ms of a paste as a newline, not a submit (so a paste ending in a newline does not
   * send itself); sent in one write, the Enter would never submit.
   */
  submitDelayMs?: number;
  /** How long a listing may be reused while the server's pane processes are unchanged, ms. Default: 10000. */
  listTtlMs?: number;
  clock?: () => number;
}

export interface TmuxPanes extends PaneManager {
  readonly socket: string;
}

const PANE_ID = /^%\d+$/;
/** `#{pid}` is the server's pid: the pane list cache checks the server's children against it. */
const FORMAT = ['#{pane_id}', '#{pane_pid}', '#{pid}', '#{pane_current_command}', '#{pane_current_path}', '#{window_name}'].join('\t');
/** The client a command resolved (display-message -p). */
const CLIENT_NAME = '#{client_name}';

/** tmux prints control characters in names literally; a label never carries any. */
export function cleanLabel(label: string): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  return label.replace(/[\u0000-\u001f\u007f]/g, ' ').trim() || 'muster';
}

/** Parses `list-panes -a -F FORMAT`; junk lines are skipped. `serverPid` is null when no line named it. */
export function parseListing(stdout: string, socket: string): { panes: PaneInfo[]; serverPid: number | null } {
  const panes: PaneInfo[] = [];
  let serverPid: number | null = null;
  for (const line of stdout.split('\n')) {
    const [id, pid, server, command, cwd, ...rest] = line.split('\t');
    if (!id || !PANE_ID.test(id) || !pid || !/^\d+$/.test(pid)) continue;
    if (server && /^\d+$/.test(server)) serverPid = Number(server);
    panes.push({
      ref: { manager: 'tmux', id, socket },
      shellPid: Number(pid),
      foregroundPids: [],
      command: command || null,
      cwd: cwd || null,
      label: rest.join('\t') || null,
    });
  }
  return { panes, serverPid };
}

export const parsePaneLines = (stdout: string, socket: string): PaneInfo[] => parseListing(stdout, socket).panes;

export function createTmuxPanes(options: TmuxPanesOptions = {}): TmuxPanes {
  const socket = options.socket ?? resolveTmuxSocket(options.env ?? process.env);
  const session = options.sessionName ?? 'muster';
  const timeout = options.timeoutMs ?? 5000;
  const exec: TmuxExec =
    options.exec ??
    ((args, input) =>
      new Promise((resolve, reject) => {
        const child = execFile('tmux', ['-S', socket, ...args], { timeout, encoding: 'utf8', maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`tmux ${args[0]}: ${stderr.trim() || error.message}`));
          else resolve(stdout);
        });
        child.stdin?.on('error', () => {});
        child.stdin?.end(input ?? '');
      }));
  const clock = options.clock ?? Date.now;
  const cache = createPaneListCache(options.listTtlMs ?? 10_000);
  // `=name` matches the session name exactly (plain `-t muster` would also match `muster-2` by prefix).
  const exact = `=${session}`;

  async function serverUp(): Promise<boolean> {
    if (!options.exec && !existsSync(socket)) return false;
    try {
      await exec(['list-sessions', '-F', '#{session_id}']);
      return true;
    } catch {
      return false;
    }
  }

  async function startIn(request: OpenRequest): Promise<string> {
    const argv = request.argv.length === 1 ? ['env', ...request.argv] : request.argv;
    const label = cleanLabel(request.label);
    const out = ['-P', '-F', '#{pane_id} #{pane_pid}', '-n', label, '-c', request.cwd, '--', ...argv];
    try {
      await exec(['has-session', '-t', exact]);
    } catch {
      try {
        return await exec(['new-session', '-d', '-s', session, ...out]);
      } catch (e) {
        // Another open created the session meanwhile: fall through to a window in it.
        if (!/duplicate session/i.test((e as Error).message)) throw e;
      }
    }
    return exec(['new-window', '-t', `${exact}:`, ...out]);
  }

  return {
    kind: 'tmux',
    socket,
    available: serverUp,
    async listPanes(table) {
      if (table) {
        const hit = cache.get(table, clock());
        if (hit) return hit;
      } else cache.clear();
      // No socket file: no server, and no exec spent finding that out.
      if (!options.exec && !existsSync(socket)) return [];
      let stdout: string;
      try {
        stdout = await exec(['list-panes', '-a', '-F', FORMAT]);
      } catch (e) {
        // A stale socket of a server that is gone lists nothing; anything else is reported.
        if (!(await serverUp())) return [];
        throw e;
      }
      const { panes, serverPid } = parseListing(stdout, socket);
      if (table) cache.set(panes, serverPid, table, clock());
      return panes;
    },
    async focus(paneId): Promise<FocusResult> {
      const pane = { manager: 'tmux', id: paneId, socket };
      if (!PANE_ID.test(paneId)) return { outcome: 'pane_not_found', pane };
      // One exec (each costs ~20 ms here): tmux runs `;`-separated commands in order and stops at the
      // first that fails. `switch-client` without `-c`, from outside tmux, picks tmux's "current" client:
      // the most recently active client of the most recently active session (any client when that
      // session has none attached), i.e. the terminal the operator last used; `display-message -p`
      // resolves the same client and names it.
      try {
        const name = await exec(['select-window', '-t', paneId, ';', 'select-pane', '-t', paneId, ';', 'switch-client', '-t', paneId, ';', 'display-message', '-p', CLIENT_NAME]);
        return { outcome: 'focused', pane, client: name.trim() || null };
      } catch (e) {
        // The pane exists (select-* passed) but no terminal is attached to the server.
        if (/no current client|no client/i.test((e as Error).message)) return { outcome: 'no_client', pane, hint: `tmux -S ${socket} attach -t ${paneId}` };
        return { outcome: 'pane_not_found', pane };
      }
    },
    async type(paneId, text) {
      if (!PANE_ID.test(paneId)) return 'pane_not_found';
      // Commands of one exec run in order: the text goes in through stdin (load-buffer -), never
      // argv; a pane in copy mode leaves it first (else keys would act on the mode); paste-buffer -p
      // brackets the paste when the application asked for it (every agent TUI does), so newlines
      // arrive as text; -d drops the buffer. Enter follows as its own key, after a pause.
      const buffer = `muster-send-${globalThis.crypto.randomUUID()}`;
      const gone = (e: unknown) => /can't find pane|no such pane/i.test((e as Error).message);
      try {
        await exec(['load-buffer', '-b', buffer, '-', ';', 'if-shell', '-F', '-t', paneId, '#{pane_in_mode}', `send-keys -t ${paneId} -X cancel`, ';', 'paste-buffer', '-p', '-d', '-b', buffer, '-t', paneId], text);
      } catch (e) {
        await exec(['delete-buffer', '-b', buffer]).catch(() => {});
        if (gone(e)) return 'pane_not_found';
        throw e;
      }
      await sleep(options.submitDelayMs ?? 250);
      try {
        await exec(['send-keys', '-t', paneId, 'Enter']);
      } catch (e) {
        if (gone(e)) return 'pane_not_found';
        throw e;
      }
      return 'typed';
    },
    async open(request): Promise<OpenResult> {
      if (request.argv.length === 0) throw new Error('tmux open: empty argv');
      const [id, pid] = (await startIn(request)).trim().split(' ');
      if (!id || !PANE_ID.test(id)) throw new Error(`tmux open: unexpected answer ${JSON.stringify(id)}`);
      return { pane: { manager: 'tmux', id, socket }, pid: pid && /^\d+$/.test(pid) ? Number(pid) : null };
    },
  };
}
