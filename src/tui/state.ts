/**
 * How the daemon's facts enter the TUI's state: the stream reducer the board shares
 * (events/stream-state.ts) applies the snapshot and the SSE events; what the operator is doing
 * (view, selection, filters, prompts) is the TUI's own.
 */
import type { Connection, TuiState } from './types.ts';

export { applyEvent, applySnapshot, isResync } from '../events/index.ts';

export function setConnection(state: TuiState, connection: Connection): TuiState {
  return state.connection === connection ? state : { ...state, connection };
}

export function flash(state: TuiState, text: string, level: 'info' | 'error', now: number): TuiState {
  return { ...state, flash: { text, level, at: now } };
}
