/**
 * herdr adapter over its socket API. Needs protocol 14+ (the `w1:p1` ids and `pane.process_info`);
 * focus needs 16+ (`pane.focus`). herdr cannot be installed on the test machines: this adapter is
 * tested against test/fakes/fake-herdr, a double of its documented protocol.
 */
import { HerdrError, herdrCall, type HerdrResult } from './herdr-client.ts';
import { resolveHerdrSocket } from './herdr-socket.ts';
import type { FocusResult, OpenRequest, OpenResult, PaneInfo, PaneManager } from './types.ts';

export interface HerdrPanesOptions {
  /** API socket. Default: resolved from `env` like herdr's CLI does. */
  socket?: string;
  env?: NodeJS.ProcessEnv;
  /** Bound on one call, ms. Default: 3000. */
  timeoutMs?: number;
  /** Pause between a typed paste and its Enter, ms (see TmuxPanesOptions.submitDelayMs). Default: 250. */
  submitDelayMs?: number;
}

export interface HerdrPanes extends PaneManager {
  readonly socket: string | null;
}

/** Lowest protocol whose ids and process info this adapter understands. */
export const MIN_PROTOCOL = 14;
const FOCUS_PROTOCOL = 16;

interface RawPane {
  pane_id?: unknown;
  cwd?: unknown;
  label?: unknown;
  agent?: unknown;
}
interface RawProcessInfo {
  shell_pid?: unknown;
  foreground_processes?: { pid?: unknown; name?: unknown }[] | null;
}

const isPid = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function createHerdrPanes(options: HerdrPanesOptions = {}): HerdrPanes {
  const socket = options.socket ?? resolveHerdrSocket(options.env ?? process.env);
  const timeout = options.timeoutMs ?? 3000;
  const call = (method: string, params: Record<string, unknown> = {}): Promise<HerdrResult> => {
    if (!socket) return Promise.reject(new HerdrError('unreachable', 'no herdr socket configured'));
    return herdrCall(socket, method, params, timeout);
  };
  const ref = (id: string) => ({ manager: 'herdr', id, socket: socket ?? undefined });

  /** The server's protocol number, or null when it is not reachable. */
  async function protocol(): Promise<number | null> {
    try {
      const pong = await call('ping');
      return typeof pong.protocol === 'number' ? pong.protocol : null;
    } catch {
      return null;
    }
  }

  async function paneInfo(raw: RawPane): Promise<PaneInfo | null> {
    const id = str(raw.pane_id);
    if (!id) return null;
    let info: RawProcessInfo = {};
    try {
      info = ((await call('pane.process_info', { pane_id: id })).process_info ?? {}) as RawProcessInfo;
    } catch (e) {
      // The pane exited between list and process_info: skip it, the next rebuild is consistent.
      if (e instanceof HerdrError && e.code === 'pane_not_found') return null;
      throw e;
    }
    const fg = (info.foreground_processes ?? []).filter((p) => isPid(p.pid));
    return {
      ref: ref(id),
      shellPid: isPid(info.shell_pid) ? info.shell_pid : 0,
      foregroundPids: fg.map((p) => p.pid as number),
      command: str(fg[0]?.name) ?? str(raw.agent),
      cwd: str(raw.cwd),
      label: str(raw.label),
    };
  }

  async function applyLayout(request: OpenRequest, workspaceId?: string): Promise<HerdrResult> {
    const label = request.label.trim() || 'muster';
    return call('layout.apply', {
      ...(workspaceId ? { workspace_id: workspaceId } : {}),
      tab_label: label,
      focus: true,
      // layout.apply runs the argv directly: no shell, no quoting.
      root: { type: 'pane', label, cwd: request.cwd, command: request.argv },
    });
  }

  return {
    kind: 'herdr',
    socket,
    async available() {
      const p = await protocol();
      return p !== null && p >= MIN_PROTOCOL;
    },
    async listPanes() {
      const p = await protocol();
      if (p === null || p < MIN_PROTOCOL) return [];
      const list = await call('pane.list');
      const panes = Array.isArray(list.panes) ? (list.panes as RawPane[]) : [];
      return (await Promise.all(panes.map(paneInfo))).filter((x): x is PaneInfo => x !== null);
    },
    async focus(paneId): Promise<FocusResult> {
      const pane = ref(paneId);
      const p = await protocol();
      if (p === null || p < FOCUS_PROTOCOL) return { outcome: 'unsupported', pane, reason: `herdr protocol ${p ?? 'unknown'} has no pane.focus (needs ${FOCUS_PROTOCOL}+)` };
      try {
        await call('pane.focus', { pane_id: paneId });
      } catch (e) {
        if (e instanceof HerdrError && e.code === 'pane_not_found') return { outcome: 'pane_not_found', pane };
        throw e;
      }
      // herdr's own UI is the client; the API does not say whether one is attached.
      return { outcome: 'focused', pane, client: null };
    },
    async type(paneId, text) {
      // herdr wraps the text in bracketed paste when the application enabled it; Enter follows apart,
      // after a pause (one write with both would reach Gemini CLI as a newline, not a submit).
      try {
        await call('pane.send_input', { pane_id: paneId, text });
        await new Promise((r) => setTimeout(r, options.submitDelayMs ?? 250));
        await call('pane.send_keys', { pane_id: paneId, keys: ['Enter'] });
        return 'typed';
      } catch (e) {
        if (e instanceof HerdrError && e.code === 'pane_not_found') return 'pane_not_found';
        throw e;
      }
    },
    async open(request): Promise<OpenResult> {
      if (request.argv.length === 0) throw new Error('herdr open: empty argv');
      let result: HerdrResult;
      try {
        result = await applyLayout(request);
      } catch (e) {
        if (!(e instanceof HerdrError && e.code === 'workspace_not_found')) throw e;
        // No active workspace (all closed): make one, then start the command in a tab of it.
        const created = await call('workspace.create', { cwd: request.cwd, label: 'muster', focus: true });
        const ws = str((created.workspace as { workspace_id?: unknown } | undefined)?.workspace_id);
        if (!ws) throw new HerdrError('bad_reply', 'workspace.create answered without a workspace id');
        result = await applyLayout(request, ws);
      }
      const layout = (result.layout ?? {}) as { focused_pane_id?: unknown; root?: { pane_id?: unknown } };
      const id = str(layout.root?.pane_id) ?? str(layout.focused_pane_id);
      if (!id) throw new HerdrError('bad_reply', 'layout.apply answered without a pane id');
      let pid: number | null = null;
      try {
        const info = (await call('pane.process_info', { pane_id: id })).process_info as RawProcessInfo | undefined;
        pid = isPid(info?.shell_pid) ? info.shell_pid : null;
      } catch {
        // The command may already have exited; the pane id is the answer that matters.
      }
      return { pane: ref(id), pid };
    },
  };
}
