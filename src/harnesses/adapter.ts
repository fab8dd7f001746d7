/**
 * What Muster knows about one coding-agent CLI, behind one interface. Each harness folder
 * (`src/harnesses/<name>/`) exports one `HarnessAdapter`; the registry lists them; everything else
 * (the daemon's sources, the wrapper, the hooks service and installer, goal runs, the auditors, the
 * board's marks) iterates the registry instead of asking which harness it is.
 *
 * An adapter module is light: discovery — which may load the native SQLite driver — is reached through
 * `createSource`, which imports it on first use, so the CLI's hot paths (`muster hook`, the wrapper)
 * never pay for it.
 */
import type { Session } from '../core/session.ts';
import type { SessionSource, TranscriptIndex } from '../discovery/contract.ts';
import type { GitReader } from '../discovery/git/index.ts';
import type { ColdIndexing } from '../discovery/index-pool/index.ts';
import type { ProcPort } from '../discovery/proc/types.ts';
import type { LaunchContext, LaunchPlan } from '../launch/plan-types.ts';
import type { InstallTarget, TargetContext } from '../hooks/install/target.ts';

/** Where a harness keeps its state, resolved from the environment (the one resolver per harness). */
export interface HarnessHomes {
  /** The root discovery reads sessions from (`~/.claude`, `$CODEX_HOME`, `$XDG_DATA_HOME/opencode`…). */
  data: string;
  /** Where the user's own configuration lives, which `muster hooks install` edits. */
  config: string;
}

/** What a discovery source is built with: real ports in the daemon, fixtures in tests. */
export interface SourceDeps {
  env: NodeJS.ProcessEnv;
  homes: HarnessHomes;
  proc: ProcPort;
  index: TranscriptIndex;
  git: GitReader;
  /**
   * The processes the harness's hooks reported from, with the sessions they named. A source whose
   * harness writes nothing that says a session is live (Gemini CLI) learns its live sessions here.
   * Default: none (no hooks are received: tests, the CLI).
   */
  sightings?: HookSightings;
  /** Reads a first start's unread transcripts in worker threads. Default: none (read in list()). */
  cold?: ColdIndexing;
}

/** Hook events → status: what the harness's hooks, plugin or extension report, and what it means. */
export type HookStatus = 'working' | 'waiting' | 'idle' | 'ended';

/** What the daemon saw last from one (session, process) pair of a harness's hooks. */
export interface HookSighting {
  sessionId: string;
  /** The process that fired the hook (unverified: a source checks it against the process table). */
  pid: number;
  /** Epoch ms the daemon received the latest event. */
  at: number;
  /** The latest event's transition: `ended` once the session-end event came. */
  status: HookStatus;
  /** Why it waits; null unless waiting. */
  waitingFor: string | null;
}

/** The daemon's record of hook sightings (src/hooks/sightings.ts). Must not throw. */
export interface HookSightings {
  /** The latest sighting of every (session, process) pair of `harness`, newest first. */
  of(harness: string): HookSighting[];
}

export interface Transition {
  status: HookStatus;
  /** Why the session waits (tool name, notification text); null unless waiting. */
  waitingFor: string | null;
}

export interface HookEvents {
  /**
   * The transition an event asserts, or null (unknown event, payload of the wrong shape). Pure and
   * tolerant: payloads come from other programs and change between versions; never throws.
   */
  transition(event: string, payload: Record<string, unknown>): Transition | null;
  /** The session id a payload names (each harness names it differently), unvalidated; null when none. */
  sessionIdOf(payload: Record<string, unknown>): string | null;
  /**
   * The harness process a hook reports for, from the hook's environment and its parent pid (`muster
   * hook` reads both); null when it cannot tell. Absent: the hook names no process.
   */
  processOf?(env: NodeJS.ProcessEnv, parentPid: number): number | null;
  /**
   * The event that ends a turn and can carry the goal driver's continuation back to the harness
   * (`{ decision: 'block', reason }`), when the harness's hook protocol has one. Absent: goals on live
   * sessions of this harness are not driven through its hooks.
   */
  turnEnd?: {
    event: string;
    /**
     * Whether `muster <harness>` injects what reports this event (Claude's --settings hooks, the pi/omp
     * extension, the OpenCode plugin). False where only `muster hooks install` does (Codex's hooks
     * need trust in hooks.json; Gemini's come from its installed extension).
     */
    viaWrapper: boolean;
    /**
     * Consecutive blocks the harness honours before it overrides one, when it caps them; 0 = no cap.
     * The hook reports the live value as `muster_block_cap` where it can read it.
     */
    defaultBlockCap: number;
    /** The cap in force, read by `muster hook` from the harness's environment (which the hook inherits). */
    blockCapFrom?(env: NodeJS.ProcessEnv): number;
    /** The payload key that holds the turn's final assistant text, which the auditor judges. Default: `last_assistant_message`. */
    reportKey?: string;
  };
}

/** One headless turn of `muster goal run`. */
export interface HeadlessRequest {
  prompt: string;
  /** Continue this session; absent: start one. */
  sessionId?: string;
  /** A pre-assigned id for a new session, where the harness accepts one. */
  newId?: string;
  /** Model to use; absent or '': the CLI's own default. */
  model?: string;
}

/** One audit of the `cli:<harness>` auditor: no tools where the CLI allows, no session left in the user's history. */
export interface AuditRequest {
  system: string;
  prompt: string;
  /** Model to use; '': the CLI's own default. */
  model: string;
}

export interface HeadlessCommand {
  /** argv[0] is the harness's command, looked up on PATH. */
  argv: string[];
  /** Written to the child's stdin, when the prompt goes there. */
  stdin?: string;
  /** The id the command gives the new session it starts (`--session-id`), when it gives one. */
  sessionId?: string;
  /**
   * A command to run after it, given what it printed, for a harness that removes what a run left
   * behind only through its own CLI (OpenCode saves every `run` as a session: `opencode session
   * delete`). Null when there is nothing to remove. Harnesses that can tidy up through their files use
   * `Headless.finish` instead.
   */
  removeAfter?(out: TurnOutput): string[] | null;
}

/** A headless command that has exited, as `Headless.finish` is told of it. */
export interface FinishedRun {
  command: HeadlessCommand;
  /** What `parse` read from its stdout. */
  output: TurnOutput;
  /** The environment it ran in (the harness's homes are resolved from it). */
  env: NodeJS.ProcessEnv;
  /** True for a `cli:` auditor's run, which must leave nothing in the user's history. */
  audit: boolean;
}

/** What a headless run printed, read into the facts the goal driver and the auditors need. */
export interface TurnOutput {
  sessionId: string | null;
  /** The turn's final assistant text; null when the turn ended on a tool result or failed. */
  text: string | null;
  /** Tokens the run spent (input, output, cache reads and writes). */
  tokens: number;
  model: string | null;
  error: string | null;
}

export interface Headless {
  command(req: HeadlessRequest): HeadlessCommand;
  /** Reads what `command` or `audit` printed. Never throws: a run it cannot read has `error` set. */
  parse(stdout: string): TurnOutput;
  /** The auditor's run, when the harness can serve as a `cli:` auditor. */
  audit?(req: AuditRequest): HeadlessCommand;
  /**
   * Called once a `command` or `audit` run has exited, for a harness whose stdout does not say all:
   * completes the output from the harness's own files (Copilot prints no token counts) and removes
   * what an auditor's run left in the user's history (Copilot persists every session). Reads and
   * deletes only in the harness's homes; never throws. Absent: `parse` says all.
   */
  finish?(run: FinishedRun): TurnOutput;
  /**
   * The next turn of a session whose process has ended, with Muster's hooks injected so they keep
   * reporting and driving it (`hookCommand(event)` is the shell command of one hook). Absent: a goal's
   * continuation that its turn-end hook could not deliver pauses the goal instead.
   */
  continueWithHooks?(sessionId: string, prompt: string, hookCommand: (event: string) => string): HeadlessCommand;
}

/**
 * What `muster send` needs to know of a harness beyond the channels the daemon finds itself (the
 * Muster extension or plugin listening on the inbox, the harness's own server, a verified pane).
 */
export interface SendSupport {
  /**
   * The resume command with `text` as the reopened session's first prompt, as argv: the text is one
   * element, never parsed by a shell. Null when this text cannot be passed so (pi reads an argument
   * that starts with `-` or `@` as an option or a file to attach).
   */
  resumeWithPrompt(id: string, text: string): string[] | null;
  /**
   * True when its interactive TUI keeps a prompt typed while a turn runs and submits it once the turn
   * ends (observed on the pinned version). Absent: a working session reached only through its pane is busy.
   */
  queuesTyped?: boolean;
}

/** What `muster new` asks of a harness: a new interactive session, with a first prompt. */
export interface StartRequest {
  /** The first prompt, verbatim; null: none. */
  prompt: string | null;
  /** A fresh UUID the adapter gives the new session where its CLI takes one (`--session-id`). */
  newId: string;
}

export interface StartArgs {
  /**
   * The harness's own arguments (the wrapper adds its injections before them). The prompt is one
   * argument, placed so that the CLI reads it as the prompt whatever it says (a leading `-`, a word that
   * names a subcommand), never through a shell.
   */
  args: string[];
  /** The new session's id when the arguments fix it; null: learnt from its first hook event. */
  sessionId: string | null;
}

/** How the board and the TUI show the harness. */
export interface HarnessDisplay {
  /** Short mark in the list (`CC`, `CX`…), at most 3 characters. */
  mark: string;
  /** The mark's colour, `#rrggbb`. */
  color: string;
  /** The builtin "Critters" pack's family for this harness: [name, emoji]. */
  critters: readonly (readonly [string, string])[];
  /** The builtin "Dots" pack's emoji. */
  dot: string;
}

export interface HarnessAdapter<N extends string = string> {
  readonly name: N;
  /** The product's own name, for people. */
  readonly label: string;
  /** The command on PATH (`muster <name>` runs it). */
  readonly bin: string;
  readonly display: HarnessDisplay;
  /** MCP client names this harness announces in `initialize` (pages from an unwrapped agent are attributed by it). */
  readonly mcpClientNames: readonly RegExp[];
  /**
   * The key of an MCP tool call's `_meta` that names the calling session, when the harness sends one
   * (Codex: `threadId`), and how such an attribution is labelled on the page.
   */
  readonly mcpToolMeta?: { key: string; via: 'codex-thread' };
  homes(env: NodeJS.ProcessEnv): HarnessHomes;
  /**
   * Variables the harness sets in the processes it starts (hooks, its tools' shells) that name its own
   * process or session. A daemon started from inside such a process inherits them; `muster new` never
   * carries them into another launch (a nested-session marker would stop a new one). Default: none.
   */
  readonly processEnv?: readonly string[];
  /** The exact session id format; anything else never reaches a source, the store or a command. */
  isValidId(id: string): boolean;
  /**
   * The discovery source (live and dormant sessions, status, the clean-end procedure, tails). Imported
   * on first call: it may load the native SQLite driver.
   */
  createSource(deps: SourceDeps): Promise<SessionSource>;
  /** The harness's own resume command for `id`, as argv (never a shell string); null when it has none. */
  resumeArgv(id: string): string[] | null;
  /** `muster send`: its resume-with-a-prompt command and how its TUI takes typed prompts. Absent: no resume with a prompt. */
  readonly send?: SendSupport;
  /** `muster <name>`: what to inject per process, how. Pure: the wrapper does the I/O. */
  planLaunch(ctx: LaunchContext): LaunchPlan;
  /**
   * `muster new`: the arguments that open a new interactive session with `prompt` as its first
   * message, where the interactive CLI takes one. Pure. Absent: Muster cannot start this harness.
   */
  startArgs?(req: StartRequest): StartArgs;
  readonly hooks: HookEvents;
  /** What `muster hooks install` adds to the harness's own configuration. */
  installTarget(ctx: TargetContext): InstallTarget;
  readonly headless: Headless;
  /**
   * The default auditor of a goal on a session of this harness: the harness itself in its print mode,
   * with the session's model when known (`cli:<name>[/<model>]`).
   */
  defaultAuditSpec?(session: Pick<Session, 'model'>): string;
}

/** Keeps the adapter's name as a literal type, so the registry can derive the `Harness` union. */
export function defineHarness<const N extends string>(adapter: HarnessAdapter<N>): HarnessAdapter<N> {
  return adapter;
}

/** Harness names are ids in paths, event names and CSS classes: lower-case letters and digits. */
export const HARNESS_NAME = /^[a-z][a-z0-9]{1,15}$/;
