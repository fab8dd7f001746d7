/**
 * The methods the fake herdr answers, each with the protocol version that introduced it: a
 * method newer than the configured protocol gets `invalid_request`, as an old server would answer.
 * Events (`events.subscribe`), waits and `agent.*` are not modelled; they answer invalid_request.
 */
import { HerdrFault, type HerdrModel } from './model.ts';

type Params = Record<string, unknown>;
type Handler = (m: HerdrModel, p: Params, ctx: { version: string; protocol: number; capabilities?: Record<string, boolean> }) => Record<string, unknown>;

const KEY = /^(enter|esc|escape|tab|backspace|up|down|left|right|minus|plus|space|shift\+tab|f([1-9]|1[0-2])|(ctrl|alt)\+[a-z0-9]|c-[a-z])$/i;

const optStr = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function checkEnv(env: unknown): void {
  if (env === undefined) return;
  if (env === null || typeof env !== 'object') throw new HerdrFault('invalid_env', 'env must be an object');
  for (const k of Object.keys(env)) if (k === '' || k.includes('=') || k.includes('\0')) throw new HerdrFault('invalid_env', `invalid env key ${JSON.stringify(k)}`);
}

function input(m: HerdrModel, p: Params, text: unknown, keys: unknown): Record<string, unknown> {
  const pane = m.pane(p.pane_id);
  const list = keys === undefined ? undefined : Array.isArray(keys) ? keys : [keys];
  // Every key is validated before anything is recorded (one bad key sends nothing).
  for (const k of list ?? []) if (typeof k !== 'string' || !KEY.test(k)) throw new HerdrFault('invalid_key', `unsupported key ${String(k)}`);
  pane.inputs.push({ ...(typeof text === 'string' ? { text } : {}), ...(list ? { keys: list as string[] } : {}) });
  return { type: 'ok' };
}

export const METHODS: Record<string, { since: number; run: Handler }> = {
  ping: { since: 9, run: (_m, _p, c) => ({ type: 'pong', version: c.version, protocol: c.protocol, ...(c.capabilities ? { capabilities: c.capabilities } : {}) }) },
  'session.snapshot': {
    since: 16,
    run: (m, _p, c) => ({
      type: 'session_snapshot',
      snapshot: { version: c.version, protocol: c.protocol, focused_pane_id: m.focusedPane ?? undefined, workspaces: [...m.workspaces.values()].map((w) => ({ workspace_id: w.workspace_id, label: w.label })), panes: [...m.panes.values()].map((p) => m.paneInfo(p)) },
    }),
  },
  'workspace.list': { since: 9, run: (m) => ({ type: 'workspace_list', workspaces: [...m.workspaces.values()].map((w) => ({ workspace_id: w.workspace_id, ...(w.label ? { label: w.label } : {}), tab_count: w.tabs.length })) }) },
  'workspace.create': {
    since: 9,
    run: (m, p) => {
      checkEnv(p.env);
      const { ws, tab, pane } = m.createWorkspace({ cwd: optStr(p.cwd), label: optStr(p.label), focus: p.focus === true });
      return { type: 'workspace_created', workspace: { workspace_id: ws.workspace_id, ...(ws.label ? { label: ws.label } : {}) }, tab: { tab_id: tab.tab_id, workspace_id: ws.workspace_id }, root_pane: m.paneInfo(pane) };
    },
  },
  'tab.list': { since: 9, run: (m, p) => ({ type: 'tab_list', tabs: [...m.tabs.values()].filter((t) => p.workspace_id === undefined || t.workspace_id === p.workspace_id).map((t) => ({ tab_id: t.tab_id, workspace_id: t.workspace_id, ...(t.label ? { label: t.label } : {}) })) }) },
  'tab.create': {
    since: 9,
    run: (m, p) => {
      checkEnv(p.env);
      const ws = m.workspace(optStr(p.workspace_id));
      const { tab, pane } = m.createTab(ws, { cwd: optStr(p.cwd), label: optStr(p.label), focus: p.focus === true });
      return { type: 'tab_created', tab: { tab_id: tab.tab_id, workspace_id: ws.workspace_id, ...(tab.label ? { label: tab.label } : {}) }, root_pane: m.paneInfo(pane) };
    },
  },
  'pane.list': { since: 9, run: (m, p) => ({ type: 'pane_list', panes: [...m.panes.values()].filter((x) => p.workspace_id === undefined || x.workspace_id === p.workspace_id).map((x) => m.paneInfo(x)) }) },
  'pane.get': { since: 9, run: (m, p) => ({ type: 'pane_info', pane: m.paneInfo(m.pane(p.pane_id)) }) },
  'pane.current': { since: 14, run: (m, p) => ({ type: 'pane_current', pane: m.paneInfo(m.pane(p.caller_pane_id ?? m.focusedPane)) }) },
  'pane.process_info': {
    since: 14,
    run: (m, p) => {
      const pane = m.pane(p.pane_id ?? m.focusedPane);
      return {
        type: 'pane_process_info',
        process_info: {
          pane_id: pane.pane_id,
          ...(pane.shell_pid !== undefined ? { shell_pid: pane.shell_pid } : {}),
          ...(pane.foreground_process_group_id !== undefined ? { foreground_process_group_id: pane.foreground_process_group_id } : {}),
          ...(pane.foreground_processes.length > 0 ? { foreground_processes: pane.foreground_processes } : {}),
        },
      };
    },
  },
  'pane.focus': {
    since: 16,
    run: (m, p) => {
      const pane = m.pane(p.pane_id);
      m.focusedPane = pane.pane_id;
      pane.seen = true;
      return { type: 'pane_info', pane: m.paneInfo(pane) };
    },
  },
  'pane.rename': {
    since: 9,
    run: (m, p) => {
      const pane = m.pane(p.pane_id);
      if (p.label === null || p.label === '') delete pane.label;
      else if (typeof p.label === 'string') pane.label = p.label;
      pane.revision++;
      return { type: 'pane_info', pane: m.paneInfo(pane) };
    },
  },
  'pane.send_text': { since: 9, run: (m, p) => input(m, p, p.text, undefined) },
  'pane.send_keys': { since: 9, run: (m, p) => input(m, p, undefined, p.keys) },
  'pane.send_input': { since: 9, run: (m, p) => input(m, p, p.text, p.keys) },
  'pane.read': {
    since: 9,
    run: (m, p) => {
      const pane = m.pane(p.pane_id);
      const source = optStr(p.source) ?? 'recent';
      const all = pane.screen.split('\n');
      const want = Math.min(typeof p.lines === 'number' ? p.lines : source.startsWith('recent') ? 80 : all.length, 1000);
      const lines = all.slice(-want);
      return { type: 'pane_read', read: { pane_id: pane.pane_id, workspace_id: pane.workspace_id, tab_id: pane.tab_id, source, format: 'text', text: lines.join('\n'), revision: 0, truncated: lines.length < all.length } };
    },
  },
  'pane.close': {
    since: 9,
    run: (m, p) => {
      m.removePane(m.pane(p.pane_id).pane_id);
      return { type: 'ok' };
    },
  },
  'layout.apply': {
    since: 14,
    run: (m, p) => {
      const root = p.root as { type?: unknown; label?: unknown; cwd?: unknown; command?: unknown; env?: unknown } | undefined;
      if (!root || root.type !== 'pane') throw new HerdrFault('invalid_layout', 'the fake supports a single pane node');
      if (!Array.isArray(root.command) || root.command.length === 0 || !root.command.every((a) => typeof a === 'string')) throw new HerdrFault('invalid_layout', 'command must be a non-empty argv');
      checkEnv(root.env);
      const ws = m.workspace(optStr(p.workspace_id));
      const { tab, pane } = m.createTab(ws, { label: optStr(p.tab_label), cwd: optStr(root.cwd), command: root.command as string[], paneLabel: optStr(root.label), focus: p.focus === true });
      return { type: 'layout_apply', layout: { workspace_id: ws.workspace_id, tab_id: tab.tab_id, zoomed: false, focused_pane_id: pane.pane_id, root: { type: 'pane', pane_id: pane.pane_id, ...(pane.label ? { label: pane.label } : {}) } } };
    },
  },
};
