/**
 * `send`: a prompt to a session as the operator's next message, through the channel chooseChannel
 * picks (channel.ts), recorded in the action log like every action. Channels that turn out to be gone
 * when used (the extension stopped polling, the server closed) fall through to the next one.
 *
 * Typing into a pane is guarded three times, right before the keys go: the session is read afresh
 * from its source (its process verified to be the harness, by executable or argv and start time),
 * the pane map is rebuilt from a new process table and pane listing (the process must be in the
 * foreground of that pane's terminal, with the start time the source verified), and the terminal must
 * be in key mode (the process reads keys; in line mode the text would wait for the next reader).
 */
import { MusterError } from '../errors/index.ts';
import type { Harness, PaneRef, Session, SessionStatus } from '../core/session.ts';
import type { SendSupport } from '../harnesses/adapter.ts';
import { isSessionId } from '../harnesses/registry.ts';
import type { ActionRecorder, Actor, Hub } from '../hub/index.ts';
import { paneLabel, shellLine } from '../hub/index.ts';
import { chooseChannel, type ChannelFacts } from './channel.ts';
import type { PaneInput, PaneOpener } from './ports.ts';
import { checkPrompt, excerpt, MAX_RESUME_PROMPT_BYTES } from './text.ts';

export interface SendAnswer {
  outcome: 'sent';
  /** The channel that took it: the extension/plugin's inbox, the harness's server, typed into the pane, or a resumed session. */
  delivered: 'inbox' | 'server' | 'pane' | 'resumed';
  /** True when the session was busy and the prompt waits for its turn to end. */
  queued: boolean;
  /** The pane typed into, or the new pane of a resumed session. */
  pane?: PaneRef;
  /** The process typed to, or the resumed command's (when the pane manager says). */
  pid?: number | null;
  /** The pane manager a resumed session opened in. */
  manager?: string;
}

export interface SendOptions {
  /** One of the session's live processes (a session open in several at once); default its main one. */
  pid?: number;
  /** The harness the caller named (the route's path): a session of another harness is not found. */
  harness?: Harness;
}

export interface Sender {
  /** `text` is checked here too (checkPrompt): empty 400, over 100 KiB 413, control characters 400. */
  send(sessionId: string, text: unknown, actor: Actor, options?: SendOptions): Promise<SendAnswer>;
}

export interface SenderOptions {
  hub: Pick<Hub, 'get' | 'source'>;
  /** Resolves once the hub's first listing is done. Default: at once. */
  ready?: () => Promise<void>;
  inbox: { listening(sessionId: string): boolean; deliver(sessionId: string, text: string, timeoutMs: number): Promise<'claimed' | 'no_listener' | 'timeout'> };
  /** How long a prompt waits for the listener to take it, ms. Default: 15000 (a poll is re-opened at once after each answer). */
  inboxTimeoutMs?: number;
  /** The harness's send support. Default in the daemon: its adapter's `send`. */
  support(harness: Harness): SendSupport | undefined;
  /** null when no pane manager is configured. */
  panes: (PaneInput & PaneOpener) | null;
  /** The start time (clock ticks) of `pid` now, or null when it is gone (the ProcPort). */
  startTicks(pid: number): number | null;
  isDirectory(path: string): boolean;
  record: ActionRecorder;
}

const DEFAULT_INBOX_MS = 15_000;

export function createSender(opts: SenderOptions): Sender {
  async function lookup(sessionId: string, harness: Harness | undefined): Promise<Session> {
    if (!isSessionId(sessionId)) throw new MusterError('invalid_id', 'not a session id (a UUID, or ses_ followed by 26 letters and digits)');
    await opts.ready?.();
    const s = opts.hub.get(sessionId);
    if (!s || (harness !== undefined && s.harness !== harness)) throw new MusterError('session_not_found', `no ${harness ?? ''}${harness ? ' ' : ''}session ${sessionId}`);
    if (opts.hub.source(s.harness)?.isValidId(sessionId) === false) throw new MusterError('invalid_id', `not a ${s.harness} session id`);
    return s;
  }

  /** The process the prompt is for and its status: `pid` when given (one of the session's), else the main one. */
  function processOf(s: Session, pid: number | undefined): { pid: number | null; status: SessionStatus } {
    if (pid === undefined) return { pid: s.pid, status: s.processes?.find((p) => p.pid === s.pid)?.status ?? s.status };
    if (!Number.isSafeInteger(pid) || pid <= 0) throw new MusterError('invalid_argument', 'pid must be a positive integer');
    const p = s.processes?.find((x) => x.pid === pid);
    if (!p && !(s.processes === undefined && s.pids.includes(pid))) {
      const known = s.processes ? s.processes.map((x) => x.pid) : s.pids;
      throw new MusterError('process_not_found', `process ${pid} does not have session ${s.id} open (its processes: ${known.join(', ') || 'none'})`, { details: { pids: known } });
    }
    return { pid, status: p?.status ?? s.status };
  }

  /** The pane re-verified right before typing (see the file comment); throws the reason it is not. */
  async function verifiedPane(s: Session, pid: number | null): Promise<{ pane: PaneRef; pid: number }> {
    if (pid === null) throw new MusterError('not_running', `session ${s.id} has no live process`);
    if (!opts.panes) throw new MusterError('no_pane_manager', 'no pane manager (tmux or herdr) is configured: Muster has nowhere to type');
    const fresh = await opts.hub.source(s.harness)?.get(s.id);
    if (!fresh?.live || !fresh.pids.includes(pid)) throw new MusterError('not_running', `process ${pid} no longer has session ${s.id} open`);
    if (!(fresh.processVerified ?? fresh.canEnd)) throw new MusterError('unsupported', `session ${s.id}'s process is not verified to be ${s.harness}: Muster types only into a verified process`);
    // The harness's own files may already say it asks something the listing has not caught up with.
    if ((fresh.processes?.find((p) => p.pid === pid)?.status ?? fresh.status) === 'waiting') {
      throw new MusterError('busy', `session ${s.id} is waiting for you (a permission prompt or a question): typed text would answer it; answer it in its pane first`);
    }
    const ticks = opts.startTicks(pid);
    if (ticks === null) throw new MusterError('not_running', `process ${pid} of session ${s.id} exited`);
    const t = await opts.panes.target(pid);
    if (!t.ok) {
      const what = `process ${pid} of session ${s.id}`;
      if (t.reason === 'no_pane') throw new MusterError('no_pane', `${what} is not running in a tmux or herdr pane; type in its own terminal`);
      if (t.reason === 'not_foreground') {
        throw new MusterError('pane_mismatch', `pane ${t.pane.id} is in the foreground of another program than ${what} (it is suspended, or a command it ran holds the terminal); nothing was typed`, { details: { pane: t.pane } });
      }
      throw new MusterError('pane_mismatch', `${what} is not reading keys in pane ${t.pane.id} (${t.reason === 'line_mode' ? 'its terminal is in line mode: a print-mode run or a shell command' : 'its terminal mode could not be read'}); typed text would wait for whatever reads the terminal next, so nothing was typed`, { details: { pane: t.pane } });
    }
    // The process in the pane's foreground is the one the source verified, not a later one with its pid.
    if (t.startTicks !== ticks) throw new MusterError('not_running', `process ${pid} of session ${s.id} exited (its pid now names another process)`);
    return { pane: t.pane, pid };
  }

  async function viaPane(s: Session, pid: number | null, text: string, queued: boolean): Promise<SendAnswer> {
    const target = await verifiedPane(s, pid);
    const r = await opts.panes!.type(target.pane, text);
    if (r === 'pane_not_found') throw new MusterError('no_pane', `pane ${target.pane.id} closed before the text could be typed`);
    if (r === 'unsupported') throw new MusterError('unsupported', `${target.pane.manager} cannot type into pane ${target.pane.id}`);
    return { outcome: 'sent', delivered: 'pane', queued, pane: target.pane, pid: target.pid };
  }

  async function viaResume(s: Session, text: string, bytes: number, support: SendSupport): Promise<SendAnswer> {
    if (bytes > MAX_RESUME_PROMPT_BYTES) {
      throw new MusterError('payload_too_large', `session ${s.id} is not running: it would be resumed with the text on its command line, which takes at most ${MAX_RESUME_PROMPT_BYTES} bytes (this is ${bytes}); resume it first (muster resume ${s.id}), then send`);
    }
    const argv = support.resumeWithPrompt(s.id, text);
    if (!argv) throw new MusterError('unsupported', `${s.harness} cannot take this text as the first prompt of a resumed session (it would read a leading - or @ as an option or a file); resume it first (muster resume ${s.id}), then send`);
    const cwd = s.cwd;
    if (cwd === null || cwd === '') throw new MusterError('cwd_unknown', `the session's directory is unknown, so it cannot be resumed here; resume it by hand in its directory`);
    if (!cwd.startsWith('/') || !opts.isDirectory(cwd)) throw new MusterError('cwd_missing', `the session's directory ${JSON.stringify(cwd)} no longer exists`, { details: { cwd } });
    const opener = opts.panes ? await opts.panes.opener() : null;
    if (!opener) {
      const command = shellLine(cwd, argv);
      throw new MusterError('no_pane_manager', `no tmux or herdr server is running to resume the session in; run it by hand: ${command}`, { details: { cwd, command } });
    }
    const opened = await opener.open({ cwd, argv, label: paneLabel(s.title, `${s.harness} ${s.id.slice(0, 8)}`) });
    return { outcome: 'sent', delivered: 'resumed', queued: false, pane: opened.pane, pid: opened.pid, manager: opener.kind };
  }

  async function deliver(s: Session, text: string, bytes: number, pid: number | undefined): Promise<SendAnswer> {
    const target = processOf(s, pid);
    const support = opts.support(s.harness);
    const facts: ChannelFacts = {
      session: s,
      status: target.status,
      statusKnown: s.statusKnown !== false,
      // A prompt for one process of several goes to that process: the inbox and server cannot aim.
      listening: pid === undefined && opts.inbox.listening(s.id),
      support,
    };
    if (pid !== undefined) facts.session = { ...s, promptable: false };
    // At most three rounds: the inbox and the server can each turn out gone when used.
    for (;;) {
      const plan = chooseChannel(facts);
      if (plan.channel === null) throw new MusterError(plan.code, plan.message);
      if (plan.channel === 'inbox') {
        const r = await opts.inbox.deliver(s.id, text, opts.inboxTimeoutMs ?? DEFAULT_INBOX_MS);
        if (r === 'claimed') return { outcome: 'sent', delivered: 'inbox', queued: plan.queued };
        if (r === 'timeout') throw new MusterError('harness_failed', `the Muster extension in session ${s.id} did not take the prompt in time; it was withdrawn`);
        facts.listening = false;
        continue;
      }
      if (plan.channel === 'server') {
        const r = await opts.hub.source(s.harness)?.prompt?.(s.id, text);
        if (r?.ok) return { outcome: 'sent', delivered: 'server', queued: plan.queued };
        if (r && r.reason === 'refused') throw new MusterError('harness_failed', r.message);
        if (r && r.reason === 'busy') throw new MusterError('busy', r.message);
        facts.session = { ...facts.session, promptable: false };
        continue;
      }
      if (plan.channel === 'pane') return viaPane(s, target.pid, text, plan.queued);
      return viaResume(s, text, bytes, support as SendSupport);
    }
  }

  return {
    send(sessionId, raw, actor, options = {}) {
      const checked = checkPrompt(raw);
      const note = checked.ok ? { bytes: checked.bytes, excerpt: excerpt(checked.text) } : {};
      return opts.record(actor, 'send', sessionId, async (h) => {
        if (!checked.ok) throw new MusterError(checked.code, checked.message);
        const s = await lookup(sessionId, options.harness);
        h(s.harness);
        return deliver(s, checked.text, checked.bytes, options.pid);
      }, note);
    },
  };
}
