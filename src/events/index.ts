// Events: the catalogue of names and payloads, the bus behind SSE, and the reducer of the SSE stream
// that the board and the TUI share.
export { createEventBus, type EventBus, type EventBusOptions, type EventListener } from './bus.ts';
export type { EventCatalogue, EventType, EventPayload, MusterEvent, Publish, PageEventType, StatusFields, HelloPayload, StreamCatalogue } from './catalogue.ts';
export {
  emptyStreamState, STATE_EVENTS, withSessions, withPages, withGoals, applySnapshot, applyEvent, isResync,
  type StreamState, type StreamSnapshot, type StreamEvent,
} from './stream-state.ts';
export {
  createEventHold, withSessionsListing, withPagesListing, withGoalsListing, indexingAfterListing,
  type EventHold, type HeldEvent,
} from './held-events.ts';
