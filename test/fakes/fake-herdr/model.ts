/**
 * The state of a fake herdr server: workspaces, tabs and
 * panes with never-reused ids (`w1`, `w1:t1`, `w1:p1`), one `term_<hex>` per pane, exactly one
 * focused pane, and per-pane process info, screen text and an input log that tests set and read.
 */
export interface FakeProcess {
  pid: number;
  name: string;
  argv?: string[];
  cwd?: string;
}

export interface FakePane {
  pane_id: string;
  terminal_id: string;
  workspace_id: string;
  tab_id: string;
  cwd?: string;
  label?: string;
  /** argv that layout.apply started (absent for shell panes). */
  command?: string[];
  agent?: string;
  agent_status: 'idle' | 'working' | 'blocked' | 'done' | 'unknown';
  seen: boolean;
  revision: number;
  shell_pid?: number;
  foreground_process_group_id?: number;
  foreground_processes: FakeProcess[];
  screen: string;
  inputs: { text?: string; keys?: string[] }[];
}

export interface FakeTab {
  tab_id: string;
  workspace_id: string;
  label?: string;
  panes: string[];
}

export interface FakeWorkspace {
  workspace_id: string;
  label?: string;
  tabs: string[];
  nextTab: number;
  nextPane: number;
}

export class HerdrFault extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class HerdrModel {
  readonly workspaces = new Map<string, FakeWorkspace>();
  readonly tabs = new Map<string, FakeTab>();
  readonly panes = new Map<string, FakePane>();
  focusedPane: string | null = null;
  private nextWorkspace = 1;
  private nextTerm = 0x18f0;

  workspace(id?: string): FakeWorkspace {
    const wsId = id ?? (this.focusedPane ? this.panes.get(this.focusedPane)?.workspace_id : [...this.workspaces.keys()][0]);
    const ws = wsId ? this.workspaces.get(wsId) : undefined;
    if (!ws) throw new HerdrFault('workspace_not_found', `workspace ${id ?? '(active)'} not found`);
    return ws;
  }

  pane(id: unknown): FakePane {
    const p = typeof id === 'string' ? this.panes.get(id) : undefined;
    if (!p) throw new HerdrFault('pane_not_found', `pane ${String(id)} not found`);
    return p;
  }

  tab(id: unknown): FakeTab {
    const t = typeof id === 'string' ? this.tabs.get(id) : undefined;
    if (!t) throw new HerdrFault('tab_not_found', `tab ${String(id)} not found`);
    return t;
  }

  createWorkspace(opts: { cwd?: string; label?: string; focus?: boolean }): { ws: FakeWorkspace; tab: FakeTab; pane: FakePane } {
    const ws: FakeWorkspace = { workspace_id: `w${(this.nextWorkspace++).toString(32)}`, tabs: [], nextTab: 1, nextPane: 1, ...(opts.label ? { label: opts.label } : {}) };
    this.workspaces.set(ws.workspace_id, ws);
    const { tab, pane } = this.createTab(ws, { cwd: opts.cwd, focus: opts.focus });
    return { ws, tab, pane };
  }

  createTab(ws: FakeWorkspace, opts: { cwd?: string; label?: string; focus?: boolean; command?: string[]; paneLabel?: string }): { tab: FakeTab; pane: FakePane } {
    const tab: FakeTab = { tab_id: `${ws.workspace_id}:t${ws.nextTab++}`, workspace_id: ws.workspace_id, panes: [], ...(opts.label ? { label: opts.label } : {}) };
    this.tabs.set(tab.tab_id, tab);
    ws.tabs.push(tab.tab_id);
    const pane = this.createPane(ws, tab, opts);
    return { tab, pane };
  }

  createPane(ws: FakeWorkspace, tab: FakeTab, opts: { cwd?: string; focus?: boolean; command?: string[]; paneLabel?: string }): FakePane {
    const pane: FakePane = {
      pane_id: `${ws.workspace_id}:p${ws.nextPane++}`,
      terminal_id: `term_${(this.nextTerm++).toString(16)}`,
      workspace_id: ws.workspace_id,
      tab_id: tab.tab_id,
      agent_status: 'unknown',
      seen: true,
      revision: 0,
      foreground_processes: [],
      screen: '',
      inputs: [],
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(opts.command ? { command: opts.command } : {}),
      ...(opts.paneLabel ? { label: opts.paneLabel } : {}),
    };
    this.panes.set(pane.pane_id, pane);
    tab.panes.push(pane.pane_id);
    if (opts.focus || this.focusedPane === null) this.focusedPane = pane.pane_id;
    return pane;
  }

  /** The pane is gone (its process exited, or it was closed); an emptied tab or workspace goes too. */
  removePane(id: string): FakePane {
    const pane = this.pane(id);
    this.panes.delete(id);
    const tab = this.tabs.get(pane.tab_id);
    if (tab) {
      tab.panes = tab.panes.filter((p) => p !== id);
      if (tab.panes.length === 0) {
        this.tabs.delete(tab.tab_id);
        const ws = this.workspaces.get(tab.workspace_id);
        if (ws) {
          ws.tabs = ws.tabs.filter((t) => t !== tab.tab_id);
          if (ws.tabs.length === 0) this.workspaces.delete(ws.workspace_id);
        }
      }
    }
    if (this.focusedPane === id) this.focusedPane = [...this.panes.keys()][0] ?? null;
    return pane;
  }

  /** PaneInfo as herdr sends it: optional fields omitted when empty. */
  paneInfo(p: FakePane): Record<string, unknown> {
    return {
      pane_id: p.pane_id,
      terminal_id: p.terminal_id,
      workspace_id: p.workspace_id,
      tab_id: p.tab_id,
      focused: this.focusedPane === p.pane_id,
      agent_status: p.agent_status === 'idle' && !p.seen ? 'done' : p.agent_status,
      revision: p.revision,
      ...(p.cwd ? { cwd: p.cwd } : {}),
      ...(p.label ? { label: p.label } : {}),
      ...(p.agent ? { agent: p.agent } : {}),
    };
  }
}
