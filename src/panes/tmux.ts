/**
 * tmux adapter: every call is `tmux -S <socket> <argv…>` through execFile (no shell), bounded in time.
 * Commands started in a new window are passed as separate arguments after `--`, which tmux execs
 * directly; a one-word argv would be handed to `sh -c` by tmux, so it is prefixed with `env`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { FocusResult, OpenRequest, OpenResult, PaneInfo, PaneManager } from './types.ts';
import { resolveTmuxSocket } from './tmux-socket.ts';

/** Runs one tmux command (argv after `-S socket`); resolves stdout, rejects with stderr. */
export type TmuxExec = (args: string[]) => Promise<string>;

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
}

export interface TmuxPanes extends PaneManager {
  readonly socket: string;
}

const PANE_ID = /^%\d+$/;
const FORMAT = ['#{pane_id}', '#{pane_pid}', '#{pane_current_command}', '#{pane_current_path}', '#{window_name}'].join('\t');

/** tmux prints control characters in names literally; a label never carries any. */
export function cleanLabel(label: string): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  return label.replace(/[\u0000-\u001f\u007f]/g, ' ').trim() || 'muster';
}

export function parsePaneLines(stdout: string, socket: string): PaneInfo[] {
  const out: PaneInfo[] = [];
  for (const line of stdout.split('\n')) {
    const [id, pid, command, cwd, ...rest] = line.split('\t');
    if (!id || !PANE_ID.test(id) || !pid || !/^\d+$/.test(pid)) continue;
    out.push({
      ref: { manager: 'tmux', id, socket },
      shellPid: Number(pid),
      foregroundPids: [],
      command: command || null,
      cwd: cwd || null,
      label: rest.join('\t') || null,
    });
  }
  return out;
}

export function createTmuxPanes(options: TmuxPanesOptions = {}): TmuxPanes {
  const socket = options.socket ?? resolveTmuxSocket(options.env ?? process.env);
  const session = options.sessionName ?? 'muster';
  const timeout = options.timeoutMs ?? 5000;
  const exec: TmuxExec =
    options.exec ??
    ((args) =>
      new Promise((resolve, reject) => {
        execFile('tmux', ['-S', socket, ...args], { timeout, encoding: 'utf8', maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`tmux ${args[0]}: ${stderr.trim() || error.message}`));
          else resolve(stdout);
        });
      }));
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
    async listPanes() {
      if (!(await serverUp())) return [];
      return parsePaneLines(await exec(['list-panes', '-a', '-F', FORMAT]), socket);
    },
    async focus(paneId): Promise<FocusResult> {
      const pane = { manager: 'tmux', id: paneId, socket };
      if (!PANE_ID.test(paneId)) return { outcome: 'pane_not_found', pane };
      try {
        await exec(['select-window', '-t', paneId]);
        await exec(['select-pane', '-t', paneId]);
      } catch {
        return { outcome: 'pane_not_found', pane };
      }
      const clients = (await exec(['list-clients', '-F', '#{client_activity}\t#{client_name}']))
        .split('\n')
        .map((l) => l.split('\t'))
        .filter((p): p is [string, string] => p.length === 2 && p[1] !== '')
        .sort((a, b) => Number(b[0]) - Number(a[0]));
      const client = clients[0]?.[1];
      if (client === undefined) return { outcome: 'no_client', pane, hint: `tmux -S ${socket} attach -t ${paneId}` };
      // The most recently active client is the one the operator is looking at.
      await exec(['switch-client', '-c', client, '-t', paneId]);
      return { outcome: 'focused', pane, client };
    },
    async open(request): Promise<OpenResult> {
      if (request.argv.length === 0) throw new Error('tmux open: empty argv');
      const [id, pid] = (await startIn(request)).trim().split(' ');
      if (!id || !PANE_ID.test(id)) throw new Error(`tmux open: unexpected answer ${JSON.stringify(id)}`);
      return { pane: { manager: 'tmux', id, socket }, pid: pid && /^\d+$/.test(pid) ? Number(pid) : null };
    },
  };
}
