/**
 * What each command accepts: its options (parsed strictly by args.ts with node:util parseArgs), whether
 * it takes positional arguments, and the texts of `muster --help` and `muster <command> --help`.
 * Modules are loaded lazily, so `muster status` never loads the HTTP framework or the SQLite driver.
 * `muster hook` and `muster <harness>` are not here: they take their arguments raw (harness.ts, main.ts).
 */
import type { CommandModule } from './command.ts';
import { STATUSES } from '../core/session.ts';
import { HARNESS_NAMES as HARNESSES } from '../harnesses/names.ts';
import { GOAL_STATUSES } from '../goals/types.ts';
import { PAGE_KINDS, PAGE_STATUSES } from '../pager/types.ts';
import { USAGE_GROUPS } from '../usage/types.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Placeholder of a string option's value in usage texts, e.g. `N`. */
  value?: string;
  describe: string;
}

export interface CommandSpec {
  /** What follows `muster ` in usage texts, e.g. `ls [--live] [--harness H]`. */
  synopsis: string;
  /** One line for `muster --help`. */
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Takes positional arguments (each command checks how many). Default: false. */
  positionals?: boolean;
  /** `goal set …`, `goal run …`: the first positional picks one, which has its own options. */
  subcommands?: Record<string, CommandSpec>;
  load(): Promise<CommandModule>;
}

const oneOf = (xs: readonly string[]) => `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`;
const HARNESS_LIST = oneOf(HARNESSES);
const str = (value: string, describe: string): OptionSpec => ({ type: 'string', value, describe });
const flag = (describe: string): OptionSpec => ({ type: 'boolean', describe });

const goalModule = () => import('./commands/goal.ts');
const goalRef = (sub: string, summary: string): CommandSpec => ({ synopsis: `goal ${sub} <sessionId|goalId>`, summary, positionals: true, load: goalModule });
const BUDGET = str('TOKENS', 'stop once the goal has used this many tokens');
const MAX_TURNS = str('N', 'stop after this many turns');
const AUDITOR = str('SPEC', 'auditor model: anthropic/<model>, openai/<model>, cli:claude[/<model>], cli:codex[/<model>]');

export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map<string, CommandSpec>([
  ['serve', { synopsis: 'serve [--port N] [--quiet]', summary: 'run the daemon in the foreground', options: { port: str('N', 'port to try first (0: any free port)'), quiet: flag('no human lines on stderr') }, load: () => import('./commands/serve.ts') }],
  ['up', { synopsis: 'up [--port N]', summary: 'start the daemon in the background; prints { ok, pid, boardUrl, mcpUrl }', options: { port: str('N', 'port to try first (0: any free port)') }, load: () => import('./commands/up.ts') }],
  ['down', { synopsis: 'down [--timeout SECONDS]', summary: 'stop the daemon', options: { timeout: str('SECONDS', 'how long to wait for it to stop (default 10)') }, load: () => import('./commands/down.ts') }],
  ['status', { synopsis: 'status', summary: 'is the daemon running? (never starts one)', load: () => import('./commands/status.ts') }],
  ['url', { synopsis: 'url', summary: 'the board URL with its token', load: () => import('./commands/url.ts') }],
  ['ls', {
    synopsis: 'ls [--live] [--harness H] [--status S] [--cwd DIR] [--host NAME] [--json]',
    summary: 'every session (a table on a terminal, else { ok, sessions })',
    options: { live: flag('live sessions only'), harness: str('H', HARNESS_LIST), status: str('S', oneOf(STATUSES)), cwd: str('DIR', 'sessions in this directory'), host: str('NAME', "in a fleet: that host's sessions only"), json: flag('the JSON envelope, also on a terminal') },
    load: () => import('./commands/ls.ts'),
  }],
  ['usage', {
    synopsis: 'usage [--by day|week|month|session|model|harness|repo] [--since DATE] [--until DATE] [--harness H] [--tz ZONE] [--json]',
    summary: 'tokens and cost over time (a table on a terminal, else { ok, rows, totals })',
    options: {
      by: str('G', `group rows by ${oneOf(USAGE_GROUPS)} (default day)`),
      since: str('DATE', 'from this local date on (YYYY-MM-DD)'),
      until: str('DATE', 'up to this local date, inclusive (YYYY-MM-DD)'),
      harness: str('H', HARNESS_LIST),
      tz: str('ZONE', "IANA time zone days are cut in (default: this terminal's)"),
      json: flag('the JSON envelope, also on a terminal'),
    },
    load: () => import('./commands/usage.ts'),
  }],
  ['show', {
    synopsis: 'show <id> [--messages [--from N] [--limit N] [--json]]',
    summary: 'one session; with --messages, its conversation paged',
    options: {
      messages: flag('the conversation: user, assistant, tool-call, tool-result and system messages'),
      from: str('N', 'from this message position on (a search hit\'s #)'),
      limit: str('N', 'at most this many messages (default 50, at most 500)'),
      json: flag('the JSON envelope, also on a terminal'),
    },
    positionals: true,
    load: () => import('./commands/show.ts'),
  }],
  ['search', {
    synopsis: 'search "<query>" [--harness H] [--limit N] [--json]',
    summary: 'full-text search over every transcript (a table on a terminal, else { ok, results })',
    options: { harness: str('H', HARNESS_LIST), limit: str('N', 'at most this many sessions (default 20, at most 200)'), json: flag('the JSON envelope, also on a terminal') },
    positionals: true,
    load: () => import('./commands/search.ts'),
  }],
  ['focus', { synopsis: 'focus <id> [--pid N]', summary: "bring a live session's tmux/herdr pane (or that process's) to the front", options: { pid: str('N', 'one of the session\'s processes (a session open in several at once)') }, positionals: true, load: () => import('./commands/focus.ts') }],
  ['resume', { synopsis: 'resume <id> [--print]', summary: 'reopen a dormant session in a new pane (live: focus)', options: { print: flag('open nothing; print { argv, cwd }, the command to run by hand') }, positionals: true, load: () => import('./commands/resume.ts') }],
  ['send', {
    synopsis: 'send <id> "<text>" [--pid N]',
    summary: "the text as the session's next prompt: its harness's own channel, else typed into its verified pane; a dormant one is resumed with it (- reads the text from stdin)",
    options: { pid: str('N', "one of the session's processes (a session open in several at once)") },
    positionals: true,
    load: () => import('./commands/send.ts'),
  }],
  ['end', { synopsis: 'end <id> [--pid N]', summary: "end a live session (or only that process) with its harness's clean signal", options: { pid: str('N', 'only this one of the session\'s processes') }, positionals: true, load: () => import('./commands/end.ts') }],
  ['new', {
    synopsis: 'new <harness> [--cwd DIR] [--worktree BRANCH] [--name NAME] [--prompt TEXT] [--goal TEXT [--budget TOKENS] [--max-turns N] [--auditor SPEC]] [--focus] [--wait SECONDS] [--json]',
    summary: 'start a new session through the wrapper in a new tmux/herdr pane (in DIR, or a new git worktree of it for BRANCH)',
    options: {
      cwd: str('DIR', 'the directory it starts in (default: here)'),
      worktree: str('BRANCH', "make a git worktree of DIR's repository for BRANCH (new, or existing and checked out nowhere) and start there"),
      name: str('NAME', "the session's name"),
      prompt: str('TEXT', 'the first prompt (default with --goal: the goal itself)'),
      goal: str('TEXT', 'set this goal on the new session; it drives it from its first turn'),
      budget: BUDGET,
      'max-turns': MAX_TURNS,
      auditor: AUDITOR,
      focus: flag('bring the new pane to the front of the attached terminal'),
      wait: str('SECONDS', 'wait up to this long (0-20) for the session id when the harness takes none up front'),
      json: flag('no sentence on stderr, only the envelope'),
    },
    positionals: true,
    load: () => import('./commands/new.ts'),
  }],
  ['worktrees', { synopsis: 'worktrees [--json]', summary: 'the git worktrees Muster made for new sessions, with their sessions and uncommitted changes', options: { json: flag('the JSON envelope, also on a terminal') }, load: () => import('./commands/worktrees.ts') }],
  ['goal', {
    synopsis: 'goal set|pause|resume|clear|show|ls|run …',
    summary: 'drive a session to a verified finish line',
    load: goalModule,
    subcommands: {
      set: { synopsis: 'goal set <sessionId> "<objective>" [--budget TOKENS] [--max-turns N] [--auditor SPEC] [--harness H]', summary: 'set a goal on a session', options: { budget: BUDGET, 'max-turns': MAX_TURNS, auditor: AUDITOR, harness: str('H', `the session's harness when it is not known yet (${HARNESS_LIST})`) }, positionals: true, load: goalModule },
      pause: goalRef('pause', 'pause a goal'),
      resume: goalRef('resume', 'resume a paused or stopped goal'),
      clear: goalRef('clear', 'remove a goal (always works)'),
      show: goalRef('show', 'one goal'),
      ls: { synopsis: 'goal ls [--status S]', summary: 'every goal', options: { status: str('S', oneOf(GOAL_STATUSES)) }, load: goalModule },
      run: {
        synopsis: 'goal run <harness> [--cwd DIR] [--budget TOKENS] [--max-turns N] [--auditor SPEC] [--turn-timeout SECONDS] [--json] "<objective>"',
        summary: 'start a headless session and drive it until it settles (exit 0 complete, 3 blocked, 4 audit_failed, 5 budget_exhausted, 6 max_turns, 7 paused)',
        options: { cwd: str('DIR', 'where the session runs (default: here)'), budget: BUDGET, 'max-turns': MAX_TURNS, auditor: AUDITOR, 'turn-timeout': str('SECONDS', 'bound of one turn (default 1800)'), json: flag('progress as JSON events on stdout') },
        positionals: true,
        load: goalModule,
      },
    },
  }],
  ['hooks', { synopsis: 'hooks install|uninstall|status [--harness H]', summary: "status hooks in each harness's own config", options: { harness: str('H', `only this harness (${HARNESS_LIST}); default: those on PATH`) }, positionals: true, load: () => import('./commands/hooks.ts') }],
  ['pages', {
    synopsis: 'pages [--pending] [--status S] [--kind K] [--session ID] [--host NAME] [--limit N]',
    summary: 'the operator inbox: { ok, pages, counts }',
    options: { pending: flag('pending pages only (--status pending)'), status: str('S', oneOf(PAGE_STATUSES)), kind: str('K', oneOf(PAGE_KINDS)), session: str('ID', "one session's pages"), host: str('NAME', "in a fleet: that host's pages only"), limit: str('N', 'at most this many') },
    load: () => import('./commands/pages.ts'),
  }],
  ['answer', { synopsis: 'answer <pageId> <text…> | answer <pageId> --choice N', summary: 'answer a page (N: 0-based index into its choices)', options: { choice: str('N', "the 0-based index of one of the page's choices") }, positionals: true, load: () => import('./commands/answer.ts') }],
  ['fleet', {
    synopsis: 'fleet join|leave|status …',
    summary: "this host's membership of a fleet (every host's agents on one board, through a shared PostgreSQL)",
    load: () => import('./commands/fleet.ts'),
    subcommands: {
      join: { synopsis: 'fleet join <postgres-url|-> [--name NAME]', summary: 'join the fleet of that database (- reads the URL from stdin); NAME: how other hosts show this one (default: the hostname)', options: { name: str('NAME', "this host's name in the fleet") }, positionals: true, load: () => import('./commands/fleet.ts') },
      leave: { synopsis: 'fleet leave', summary: "leave the fleet: this host's records are removed from the database and the URL forgotten", load: () => import('./commands/fleet.ts') },
      status: { synopsis: 'fleet status', summary: 'membership, connection, outbox and every host (never starts a daemon)', load: () => import('./commands/fleet.ts') },
    },
  }],
  ['tui', { synopsis: 'tui', summary: 'the operator TUI (what `muster` with no command opens on a terminal)', load: () => import('./commands/tui.ts') }],
]);

/** Listed in `muster --help`, but parsed by no spec: `hook` tolerates whatever a harness passes, the wrapper passes all but --name on. */
export const RAW_COMMANDS: readonly { synopsis: string; summary: string }[] = [
  { synopsis: 'hook <harness> <event>', summary: '(called by harness hooks) post a hook event to the daemon; always exits 0, no envelope' },
  { synopsis: '<harness> [--name NAME] [args...]', summary: `run ${HARNESS_LIST} wired to Muster; every other argument, --help included, goes to the harness` },
];
