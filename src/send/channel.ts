/**
 * Which channel a prompt takes to a session, from what is known of it now. Pure: the service gathers
 * the facts, runs the plan, and re-verifies a pane just before typing into it.
 *
 * In order of preference — a harness's own channel first, typing last:
 * 1. `inbox`: Muster's extension (pi, omp) or plugin (OpenCode's TUI) in the session's process polls
 *    the daemon for it. It queues: pi/omp `sendUserMessage(…, followUp)`, OpenCode `promptAsync`.
 * 2. `server`: the harness's own server runs the session (OpenCode `serve`, or a TUI started with
 *    `--port`): `prompt_async`, which queues behind a running turn. A session idle on `opencode serve`
 *    is listed dormant, yet its server takes the prompt. Likewise a thread the shared Codex app-server
 *    daemon holds (attached to a TUI or lingering, listed dormant): `turn/start`, which would steer a
 *    running turn rather than queue, so the source refuses a working thread as `busy`.
 * 3. `pane`: a live session's verified process, in the foreground of its tmux/herdr pane, reading
 *    keys: the text is pasted, then Enter. Never while it waits on a question of its own (the text
 *    would answer it), nor blind (status unknown); while it works only where its TUI queues typed
 *    prompts (observed), else `busy`.
 * 4. `resume`: a dormant session reopens in a new pane with the text as its first prompt.
 */
import type { ErrorCode } from '../errors/index.ts';
import type { Session, SessionStatus } from '../core/session.ts';
import type { SendSupport } from '../harnesses/adapter.ts';

export type SendChannel = 'inbox' | 'server' | 'pane' | 'resume';

export interface ChannelFacts {
  session: Pick<Session, 'id' | 'harness' | 'live' | 'canEnd' | 'processVerified' | 'promptable'>;
  /** The status of the process the prompt is for (the session's, or one of its `processes`). */
  status: SessionStatus;
  /** False when nothing reports what the process is doing (a Gemini CLI run without Muster's hooks). */
  statusKnown: boolean;
  /** An extension or plugin in the session's process is polling the inbox for it. */
  listening: boolean;
  /** The harness's resume-with-a-prompt and typing behaviour (its adapter's `send`). */
  support: SendSupport | undefined;
}

export type ChannelPlan =
  | { channel: 'inbox' | 'server' | 'pane'; queued: boolean }
  | { channel: 'resume'; queued: false }
  | { channel: null; code: ErrorCode; message: string };

const refuse = (code: ErrorCode, message: string): ChannelPlan => ({ channel: null, code, message });

export function chooseChannel(f: ChannelFacts): ChannelPlan {
  const s = f.session;
  const running = f.status === 'working' || f.status === 'waiting';
  if (f.listening) return { channel: 'inbox', queued: running };
  if (s.promptable === true) return { channel: 'server', queued: running };
  if (!s.live) {
    if (!f.support) return refuse('unsupported', `${s.harness} sessions cannot be resumed with a prompt; resume it, then send`);
    return { channel: 'resume', queued: false };
  }
  if (!(s.processVerified ?? s.canEnd)) {
    return refuse('unsupported', `session ${s.id}'s process is not verified to be ${s.harness} (matched by its directory only): Muster types only into a verified process; type in its own terminal`);
  }
  if (!f.statusKnown) {
    return refuse('busy', `nothing reports what session ${s.id} is doing (no Muster hooks in that ${s.harness}), so it may be waiting on a question of its own that typed text would answer; type in its own terminal, or start it with \`muster ${s.harness}\``);
  }
  if (f.status === 'waiting') {
    return refuse('busy', `session ${s.id} is waiting for you (a permission prompt or a question): typed text would answer it; answer it in its pane first`);
  }
  if (f.status === 'working') {
    if (f.support?.queuesTyped === true) return { channel: 'pane', queued: true };
    return refuse('busy', `session ${s.id} is working and ${s.harness} does not queue typed prompts; send once it is idle`);
  }
  return { channel: 'pane', queued: false };
}
