// Events: the catalogue of names and payloads, the bus behind SSE.
export { createEventBus, type EventBus, type EventBusOptions, type EventListener } from './bus.ts';
export type { EventCatalogue, EventType, EventPayload, MusterEvent, Publish, PageEventType, StatusFields, HelloPayload, StreamCatalogue } from './catalogue.ts';
