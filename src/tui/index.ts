/** The operator TUI (issue 10): `muster` on a terminal. Pure state/keys/render, terminal and SSE behind ports. */
export { createTui, type Tui, type TuiApi, type TuiOptions, type EventsPort, type EventHandlers } from './app.ts';
export { createNodeTerminal, toKey, type Terminal, type NodeTerminalOptions } from './terminal.ts';
export { createSseClient, createSseParser, type SseClient, type SseClientOptions, type SseMessage, type SseTarget } from './sse-client.ts';
export { renderFrame, HELP, type Frame, type FrameOptions } from './render.ts';
export { handleKey, type Key, type KeyContext, type KeyResult } from './keys.ts';
export { applyEvent, applySnapshot } from './state.ts';
export { initialState, type TuiState, type Snapshot, type Effect, type ApiCall } from './types.ts';
export { colorEnabled } from './ansi.ts';
