/**
 * The one composition root (the CLI, the tests and the daemon entry all start here): lock → store →
 * sources → hub → panes → actions, launches, hooks, board, pager, goals → HTTP server → publish
 * endpoints. `close()` undoes it in reverse, once, completely, releasing the lock last.
 */
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { acquireLock, type LockHandle, type LockOperations } from './lock/index.ts';
import { buildIdentity, VERSION, type BuildIdentity } from './identity.ts';
import { ensureHome, loadOrCreateToken, resolvePaths, tightenHome, type MusterPaths } from './paths.ts';
import { DEFAULT_INDEX_FLUSH_INTERVAL_MS, openSqliteStore, createFsPackFiles, type Store } from '../store/index.ts';
import { createEventBus, type EventBus } from '../events/index.ts';
import { createApp } from '../server/app.ts';
import { listen, type Listener } from '../server/listen.ts';
import { coreRoutes, type ServiceIdentity } from '../server/routes/core.ts';
import { eventsRoutes } from '../server/routes/events.ts';
import { webRoutes } from '../server/routes/web.ts';
import { sessionRoutes } from '../server/routes/sessions.ts';
import { harnessRoutes } from '../server/routes/harnesses.ts';
import { inboxRoutes } from '../server/routes/inbox.ts';
import { createInbox } from '../inbox/index.ts';
import { createDriveCheck } from './goal-drive-check.ts';
import { watchServerTurns } from './server-turns.ts';
import { actionRoutes } from '../server/routes/actions.ts';
import { sendRoutes } from '../server/routes/send.ts';
import { createSender } from '../send/index.ts';
import { adapterFor } from '../harnesses/registry.ts';
import { createPaneService } from '../panes/index.ts';
import { isDirectory } from './fs-checks.ts';
import { sessionTailRoutes } from '../server/routes/session-tail.ts';
import { characterRoutes } from '../server/routes/characters.ts';
import { packRoutes } from '../server/routes/packs.ts';
import { sceneRoutes } from '../server/routes/scene.ts';
import { createCharacterService, createSceneService } from '../board/index.ts';
import { createActionRecorder, createActions, createHub, createHookStatus, type Actions, type Hub } from '../hub/index.ts';
import { createHookService, createHookSightings } from '../hooks/index.ts';
import { createLaunchService } from '../launch/index.ts';
import { hookRoutes } from '../server/routes/hooks.ts';
import { createSources } from './sources.ts';
import { createDaemonColdIndexing } from './cold-index.ts';
import { daemonSearchThread } from './search-thread.ts';
import type { ProcPort } from '../discovery/proc/types.ts';
import { createLivenessProbe } from '../discovery/proc/index.ts';
import type { App } from '../server/env.ts';
import { createDesktopChannel, createNotifier, createPager, createWebhookChannel, type NotificationChannel, type SessionLookup } from '../pager/index.ts';
import { pageRoutes } from '../server/routes/pages.ts';
import { createMcpEndpoint } from '../server/routes/mcp.ts';
import { createAuditorFactory, createGoals, createHookDecider, createPagerPagePort, createStopHandoff, finalReport } from '../goals/index.ts';
import { runArgv, runCommand, resumeHeadless } from './runners.ts';
import { auditorHarnesses, canContinueHeadless, turnEndOf } from '../harnesses/ports.ts';
import { goalRoutes } from '../server/routes/goals.ts';
import { fleetRoutes } from '../server/routes/fleet.ts';
import { stampHost } from '../server/fleet-routing.ts';
import { createFleetControl } from './fleet.ts';
import { LIMITS } from '../pager/index.ts';
import { usageRoutes } from '../server/routes/usage.ts';
import { searchRoutes } from '../server/routes/search.ts';
import { createSearchService } from '../search/index.ts';
import { createBudgetWatch, createUsageService, localTimeZone } from '../usage/index.ts';
import { createNewSessions, installedOn, lateBound } from './new-sessions.ts';

export const DEFAULT_PORT = 6878;

/** How long a prompt waits for the session's extension or plugin to take it, ms (its poll is at most 25 s away). */
const INBOX_DELIVERY_MS = 30_000;
/** How long after a request the index's writes stay in small chunks (store option indexBusy). */
const REQUEST_QUIET_MS = 1000;
/**
 * How long a hold of the index keeps its writes past its release (store option indexHoldLingerMs). A
 * first start's hold ends with the cold index, and the listing it completes is what every client was
 * waiting for: the hub publishes it to the board, and `muster ls` (a fresh process, ~170 ms here) asks
 * for it. The writes after the hold take both cores meanwhile: this thread for the rows, the search
 * thread for FTS5 (~0.4 s and ~0.5 s of CPU after a 546 MiB Claude history). Lingering, the hold leaves
 * those cores to the clients first. Measured on that history on a 2-core machine (spawn of `up` to a
 * complete `ls`, medians of six runs, alternating): 1,942 ms without, 1,783 ms with 300, 1,784 ms with
 * 600. A crash meanwhile loses only progress: those bytes are read again.
 */
const INDEX_HOLD_LINGER_MS = 300;

export interface DaemonOptions {
  /** Environment to read MUSTER_HOME, MUSTER_BUILD_ID and harness homes from. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Port to try first (0 = any free port). Default: MUSTER_PORT or 6878. */
  port?: number;
  /** Directory of the built board. Default: dist/web beside the bundle. */
  webRoot?: string;
  /** Lock OS operations (tests inject). */
  lockOps?: Partial<LockOperations>;
  heartbeatMs?: number;
  /** Process-table port for the sources and the liveness sweep (tests may inject). */
  proc?: ProcPort;
  log?(line: string): void;
}

export interface Daemon {
  readonly paths: MusterPaths;
  readonly identity: BuildIdentity;
  readonly port: number;
  readonly token: string;
  readonly urls: { board: string; api: string; mcp: string };
  readonly app: App;
  readonly bus: EventBus;
  readonly store: Store;
  readonly hub: Hub;
  readonly actions: Actions;
  /** Resolves when close() has finished. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

function defaultWebRoot(): string {
  // Bundled: dist/cli.js → dist/web. From source (tsx): src/daemon → dist/web.
  const here = dirname(fileURLToPath(import.meta.url));
  return here.endsWith('dist') ? join(here, 'web') : join(here, '..', '..', 'dist', 'web');
}

export async function createDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const paths = resolvePaths(env);
  ensureHome(paths);
  const identity = buildIdentity(env);
  const startedAtMs = Date.now();
  const disposers: (() => void | Promise<void>)[] = [];

  const lock: LockHandle = await acquireLock({ lockPath: paths.lock, identity, ops: options.lockOps });
  disposers.push(() => lock.release());
  try {
    for (const p of tightenHome(paths)) log(`[muster] ${p} was readable by others; made it private`);
    // When the last request came in: the index's writes after a first start's hold go out in small chunks
    // for a second after one, so a board or `muster ls` gets the thread between two.
    let lastRequestAt = -Infinity;
    const store = openSqliteStore({
      path: paths.db, indexFlushIntervalMs: DEFAULT_INDEX_FLUSH_INTERVAL_MS, indexBusy: () => performance.now() - lastRequestAt < REQUEST_QUIET_MS,
      indexHoldLingerMs: INDEX_HOLD_LINGER_MS,
      searchThread: daemonSearchThread(), log,
    });
    disposers.push(() => store.close());
    const token = loadOrCreateToken(paths.token);
    const bus = createEventBus();
    let rescanSeconds = (await store.settings.all()).rescanSeconds;
    // The processes hooks report from: sources of harnesses with no liveness on disk read them.
    const sightings = createHookSightings();
    const cold = createDaemonColdIndexing(env, log);
    disposers.push(() => cold.indexer.close());
    const { sources, proc } = await createSources({ env, index: store.transcriptIndex, proc: options.proc, sightings, cold });
    // Exact status from hook events wins over file-derived status while the process lives.
    const overlay = createHookStatus();
    // The sweep's probe holds a /proc descriptor per live pid (a read per sweep instead of a path walk and a parse).
    const liveness = createLivenessProbe(proc, { procRoot: options.proc ? null : undefined });
    disposers.push(() => liveness.close());
    const hub = createHub({ sources, bus, isAlive: (pid) => liveness.isAlive(pid), rescanMs: () => rescanSeconds * 1000, overlay, log });
    disposers.push(() => hub.close());
    // tmux (the user's server, or MUSTER_TMUX_SOCKET) and herdr (its socket, when found).
    const panes = createPaneService({ proc, env, tmuxSocket: env.MUSTER_TMUX_SOCKET?.trim() || undefined, log });
    const record = createActionRecorder({ log: store.actions, bus, logLine: log });
    const actions = createActions({ hub, bus, log: store.actions, record, panes, isDirectory, ready: () => hub.ready(), logLine: log });
    bus.on('settings.updated', (e) => {
      rescanSeconds = Number(e.data.rescanSeconds ?? rescanSeconds);
    });

    // `muster new` learns its launches' session ids here; its launcher is made once the goals exist.
    const binding = lateBound();
    const launches = createLaunchService({ repo: store.launches, overlay, bus, onBound: binding.onBound });
    const hooks = createHookService({ overlay, bus, sightings, link: (l, h, id) => launches.link(l, h, id), refresh: (h) => void hub.refresh(h), decide: (input, sessionId) => goalHookDecision.decide(input, sessionId), collect: (id, ms) => goalHookDecision.collect(id, ms) });
    const characters = createCharacterService({ repo: store.board, files: createFsPackFiles(paths.packs) });
    const scene = createSceneService({ repo: store.board });
    // Pager: pages in the store, channels read from settings at each page, MCP sessions per client.
    let boardBase = '';
    const desktop = createDesktopChannel({ run: runArgv });
    const notifier = createNotifier({
      repo: store.pages,
      bus,
      log,
      boardUrl: (id) => `${boardBase}?page=${id}`,
      channels: async () => {
        const s = await store.settings.all();
        const out: NotificationChannel[] = s.notifyDesktop ? [desktop] : [];
        if (s.webhookUrl) out.push(createWebhookChannel({ url: s.webhookUrl, format: s.webhookFormat }));
        return out;
      },
    });
    const pager = createPager({
      repo: store.pages,
      bus,
      log,
      onOpened: (p) => void notifier.notify(p),
      settings: async () => {
        const s = await store.settings.all();
        return { askWaitSeconds: s.askWaitSeconds, pageExpiryHours: s.pageExpiryHours, maxPendingPerSession: s.maxPendingPerSession };
      },
    });
    disposers.push(pager.start());
    // Prompts to live sessions through their own extension or plugin (a goal's resume, the board).
    const inbox = createInbox();
    disposers.push(() => inbox.close());
    /** A prompt to a live session: through its extension or plugin when one listens, else its harness's server. */
    const deliverLive = async (sessionId: string, prompt: string): Promise<{ ok: true } | { ok: false; error: string }> => {
      if (inbox.listening(sessionId)) {
        const r = await inbox.deliver(sessionId, prompt, INBOX_DELIVERY_MS);
        return r === 'claimed' ? { ok: true } : { ok: false, error: 'the session did not take the prompt in time' };
      }
      const s = hub.get(sessionId);
      const p = s ? await hub.source(s.harness)?.prompt?.(sessionId, prompt) : undefined;
      if (p?.ok) return { ok: true };
      return { ok: false, error: p?.message ?? 'no Muster extension or plugin is listening in that session, and its harness has no server to prompt' };
    };
    const canPromptLive = async (sessionId: string): Promise<boolean> => {
      if (inbox.listening(sessionId)) return true;
      const s = hub.get(sessionId);
      return s?.promptable === true;
    };
    // Goals: the driver reads settings fresh at each decision; a blocked goal pages, its answer resumes it.
    const goals = createGoals({
      repo: store.goals,
      settings: async () => {
        const s = await store.settings.all();
        return {
          auditEnabled: s.auditEnabled, auditModel: s.auditModel, auditTimeoutMs: s.auditTimeoutSeconds * 1000,
          defaultTokenBudget: s.goalDefaultTokenBudget || null, defaultMaxTurns: s.goalDefaultMaxTurns,
        };
      },
      auditorFor: createAuditorFactory({ env, harnesses: auditorHarnesses, run: runCommand, log }),
      pages: createPagerPagePort(pager, log),
      publish: (type, data) => void bus.publish(type, data),
      continuation: { canSend: (id) => canPromptLive(id), send: (input) => deliverLive(input.sessionId, input.prompt) },
      log,
    });
    disposers.push(watchServerTurns({ bus, hub, inbox, goals, log }));
    // `muster send`, the board's message box, the TUI's m: the harness's own channel, else its verified pane.
    const sender = createSender({ hub, ready: () => hub.ready(), inbox, support: (h) => adapterFor(h).send, panes, startTicks: (pid) => proc.read(pid)?.startTicks ?? null, isDirectory, record });
    const goalHookDecision = createHookDecider({
      onTurnFinished: (turn) => goals.onTurnFinished(turn),
      turnEndOf,
      // A Stop waits for an audit only when the session has an active goal; others answer at once.
      activeGoalSince: async (id) => {
        const g = await goals.forSession(id);
        return g?.status === 'active' ? Date.parse(g.createdAt) : null;
      },
      auditTimeoutMs: async () => (await store.settings.all()).auditTimeoutSeconds * 1000,
      handoff: createStopHandoff({
        repo: store.goals,
        publish: (type, data) => void bus.publish(type, data),
        log,
        ops: {
          exited: (id, pid) => (pid ? !proc.isAlive(pid) : !hub.get(id)?.live),
          canContinue: canContinueHeadless,
          deliverLive: async (input) => inbox.listening(input.sessionId) && (await deliverLive(input.sessionId, input.prompt)).ok,
          resumeHeadless: (input) => resumeHeadless(env, { ...input, cwd: input.cwd ?? hub.get(input.sessionId)?.cwd ?? null }),
        },
      }),
      log,
      sessionTokens: (id) => {
        const t = hub.get(id)?.tokens;
        return t ? t.input + t.output + t.cacheRead + t.cacheWrite : null;
      },
      reportOf: async (harness, id) => {
        const source = hub.source(harness);
        return source?.tail ? finalReport(await source.tail(id, 30)) : null;
      },
      sessionInfo: (id) => {
        const s = hub.get(id);
        return s ? { model: s.model, cwd: s.cwd } : undefined;
      },
    });
    bus.on('page.answered', ({ data: p }) => {
      // Another host's page (announced here by the fleet) resumes that host's goal there, not one here.
      if (p.answer?.text && !p.hostId) void goals.onPageAnswered(p.id, p.answer.text).catch((err: unknown) => log(`[goals] resume from page failed: ${(err as Error).message}`));
    });
    // Spend: reports over the usage records the sources store while they index; budget alerts as a notice page.
    // The daemon's zone is found when first needed: it loads ICU's zone data (~20 ms of a start).
    let zone: string | undefined;
    const daemonTz = (): string => (zone ??= localTimeZone());
    const usage = createUsageService({
      repo: store.usage,
      session: (id) => {
        const s = hub.get(id);
        return s ? { repo: s.repoRoot ?? s.cwd, branch: s.branch, title: s.title } : undefined;
      },
    });
    const budget = createBudgetWatch({
      usage,
      repo: store.usage,
      tz: daemonTz,
      settings: async () => {
        const s = await store.settings.all();
        return { dailyBudgetUsd: s.dailyBudgetUsd, monthlyBudgetUsd: s.monthlyBudgetUsd };
      },
      notify: async (message) => {
        const caller = { attribution: { sessionId: null, harness: null, via: 'none' as const, launchId: null, cwd: null, note: 'Muster budget alert' }, fallbackKey: 'muster:budget' };
        await pager.notify({ message, level: 'warning' }, caller).then(() => undefined, (e: unknown) => log(`[usage] budget notice failed: ${(e as Error).message}`));
      },
      log,
    });
    disposers.push(() => budget.close(), () => usage.close());
    disposers.push(store.usage.onRecorded((change) => {
      bus.publish('usage.recorded', { harnesses: change.harnesses });
      budget.poke();
    }));
    bus.on('settings.updated', () => budget.poke());
    // Search: the store's FTS5 index (fed by the sources' folds), sessions described by discovery.
    const search = createSearchService({
      repo: store.search,
      session: (harness, id) => {
        const s = hub.get(id);
        if (!s || s.harness !== harness) return undefined;
        return { harness, id, title: s.title || null, cwd: s.cwd, repoRoot: s.repoRoot, branch: s.branch, live: s.live };
      },
      messages: async (harness, id, from, limit) => {
        const source = hub.source(harness);
        return source?.messages ? source.messages(id, from, limit) : 'unsupported';
      },
    });
    const newSessions = createNewSessions({ env, musterHome: paths.home, store, hub, bus, panes, actions, goals, log });
    binding.set(newSessions.launcher);
    const sessionLookup: SessionLookup = { get: (id) => hub.get(id), live: (cwd, harness) => hub.list({ live: true, cwd, ...(harness ? { harness } : {}) }), launchSession: (id) => launches.sessionOf(id) };
    const mcp = createMcpEndpoint({ pager, version: VERSION, log, sessions: sessionLookup, search });
    const streams = new Set<() => void>();
    const serviceIdentity: ServiceIdentity = {
      service: 'muster',
      serviceProtocolVersion: identity.serviceProtocolVersion,
      protocolVersion: identity.protocolVersion,
      buildId: identity.buildId,
      pid: process.pid,
    };
    let port = 0;
    // The fleet: other hosts' records for the routes, and this host's records mirrored to them (once joined).
    const fleet = createFleetControl({
      env, home: paths.home, version: identity.buildId, bus, outbox: store.fleetOutbox, log,
      current: async () => {
        await hub.ready();
        const pages = await store.pages.list({ limit: LIMITS.listedMax });
        const goalList = await store.goals.list({ limit: 1000 });
        return { sessions: hub.list(), pages, goals: goalList, completePages: pages.length < LIMITS.listedMax, completeGoals: goalList.length < 1000 };
      },
      acceptCommands: async () => (await store.settings.all()).fleetAcceptCommands,
      // Called only once the server listens (the link starts after it), when `app` exists.
      request: () => {
        if (port === 0) return null;
        return (path, init) => Promise.resolve(app.request(`http://127.0.0.1:${port}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } }));
      },
    });
    bus.on('settings.updated', () => fleet.settingsChanged());
    const localSession = async (id: string) => {
      await hub.ready();
      return hub.get(id);
    };
    const app = createApp({
      token,
      getPort: () => port,
      onRequest: () => {
        lastRequestAt = performance.now();
      },
      routes: [
        coreRoutes({ identity: serviceIdentity, store, bus, startedAtMs, counts: () => ({ ...hub.counts(), sseClients: streams.size, pagesPending: pager.counts().pending ?? 0, pagesExpiredUndecided: pager.counts().expiredUndecided ?? 0, mcpSessions: mcp.count() }), indexing: () => ({ ...hub.indexing(), writing: store.transcriptIndex.waiting?.() ?? 0, searching: store.transcriptIndex.searchBehind?.() ?? 0 }), mcpMounted: true }),
        harnessRoutes({ installed: installedOn(env) }),
        sessionRoutes({ hub, decorate: (s) => actions.decorate(s), fleet, eventId: () => bus.lastId() }),
        actionRoutes({ actions, history: store.actions, fleet, local: localSession }),
        sendRoutes({ sender, fleet, local: localSession }),
        newSessions.routes,
        sessionTailRoutes({ hub }),
        hookRoutes({ hooks, launches }),
        inboxRoutes({ inbox }),
        characterRoutes({ characters, bus }),
        packRoutes({ characters, bus }),
        sceneRoutes({ scene, bus }),
        pageRoutes({ pager, sessions: sessionLookup, fleet }),
        fleetRoutes({ fleet }),
        usageRoutes({ usage, hub, defaultTz: daemonTz }),
        searchRoutes({ search, hub }),
        goalRoutes({ goals, fleet, localSession: async (id) => (await localSession(id)) !== undefined, harnessOf: (id) => hub.get(id)?.harness ?? fleet.session(id)?.harness, drivable: createDriveCheck({ env, session: (id) => hub.get(id), judgesServerTurns: (h) => typeof hub.source(h)?.tail === 'function', runningLaunches: () => launches.list({ running: true, limit: 1000 }) }) }),
        mcp.mount,
        eventsRoutes({
          bus,
          heartbeatMs: options.heartbeatMs,
          hello: () => ({ pid: process.pid, buildId: identity.buildId }),
          track: (close) => {
            streams.add(close);
            return () => streams.delete(close);
          },
          onDrop: (q) => log(`[muster] an SSE client stopped reading (${q.events} events, ${q.bytes} characters waiting); disconnected it`),
          dataOf: (e) => stampHost(e, fleet.localName()),
        }),
        webRoutes({ webRoot: options.webRoot ?? defaultWebRoot() }),
      ],
    });
    const requested = options.port ?? (env.MUSTER_PORT ? Number(env.MUSTER_PORT) : DEFAULT_PORT);
    const listener: Listener = await listen(app, {
      port: requested,
      beforeClose: () => {
        for (const close of [...streams]) close();
      },
    });
    port = listener.port;
    disposers.push(() => listener.close());
    // Joined already (MUSTER_FLEET_URL or fleet.json): connect in the background; the daemon serves at once.
    fleet.start();
    disposers.push(() => fleet.close());
    // Runs before the listener closes: waiting tool calls return `pending`, then MCP sessions end.
    disposers.push(async () => {
      pager.close();
      await mcp.close();
    });

    const base = `http://127.0.0.1:${port}`;
    const urls = { board: `${base}/`, api: `${base}/api`, mcp: `${base}/mcp` };
    boardBase = urls.board;
    lock.publish(urls);
    bus.publish('daemon.ready', { pid: process.pid, port });
    // The first scan starts once the server answers (its synchronous part would otherwise delay
    // readiness); session routes wait for it (hub.ready()).
    const firstScan = setImmediate(() => {
      void hub.start().catch((e: unknown) => log(`[muster] discovery failed to start: ${(e as Error).message}`));
    });
    disposers.push(() => clearImmediate(firstScan));

    let resolveClosed!: () => void;
    const closed = new Promise<void>((r) => (resolveClosed = r));
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        // Reverse order; every step runs even when an earlier one fails; the lock goes last.
        for (const d of disposers.reverse()) {
          try {
            await d();
          } catch (e) {
            log(`[muster] shutdown step failed: ${(e as Error).message}`);
          }
        }
        resolveClosed();
      })();
      return closing;
    };
    return { paths, identity, port, token, urls, app, bus, store, hub, actions, closed, close };
  } catch (e) {
    for (const d of disposers.reverse()) {
      try {
        await d();
      } catch {}
    }
    throw e;
  }
}
