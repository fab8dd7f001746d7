export type { FocusResult, OpenRequest, OpenResult, PaneInfo, PaneManager, PaneRef } from './types.ts';
export { createTmuxPanes, cleanLabel, parsePaneLines, type TmuxPanes, type TmuxPanesOptions, type TmuxExec } from './tmux.ts';
export { resolveTmuxSocket } from './tmux-socket.ts';
export { createHerdrPanes, MIN_PROTOCOL, type HerdrPanes, type HerdrPanesOptions } from './herdr.ts';
export { herdrCall, HerdrError, type HerdrResult } from './herdr-client.ts';
export { resolveHerdrSocket } from './herdr-socket.ts';
export { buildPaneMap, paneOfPids, type PaneMap } from './pane-map.ts';
export { createPaneTracker, type PaneTracker, type PaneTrackerOptions } from './pane-tracker.ts';
export { createPaneService, type PaneService, type PaneServiceOptions } from './service.ts';
