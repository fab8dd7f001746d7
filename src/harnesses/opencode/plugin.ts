/**
 * Muster's OpenCode status plugin, built into a self-contained module (dist/status-assets/) that the
 * wrapper and `hooks install` drop beside a tui.json. A TUI plugin, not a server plugin: OpenCode
 * 1.18.33 makes every server plugin wait for the `@opencode-ai/plugin` npm install it starts in each
 * config directory, which offline blocks start-up for minutes (see launch.ts). A TUI plugin is the
 * module's default export `{ id, tui }`; its `api.event.on` hands over the same bus events as a server
 * plugin's `event` hook, in the TUI's process.
 */
import { reportEvent } from '../status-assets/daemon-link.ts';
import { OPENCODE_PLUGIN_EVENTS } from './hooks.ts';

interface BusEvent {
  type?: unknown;
  properties?: Record<string, unknown>;
}

interface TuiApi {
  event: { on(type: string, handler: (event: BusEvent) => void): void };
}

function forward(event: BusEvent): void {
  if (!event || typeof event.type !== 'string' || !(OPENCODE_PLUGIN_EVENTS as readonly string[]).includes(event.type)) return;
  const p = event.properties ?? {};
  const permission = typeof p.permission === 'string' ? p.permission : typeof p.type === 'string' ? p.type : undefined;
  void reportEvent('opencode', event.type, { sessionID: p.sessionID, status: p.status, permission });
}

export default {
  id: 'muster-status',
  tui: async (api: TuiApi): Promise<void> => {
    for (const type of OPENCODE_PLUGIN_EVENTS) api.event.on(type, forward);
  },
};
