/**
 * The daemon's side of the fleet: whether this host belongs to one (MUSTER_FLEET_URL, else
 * MUSTER_HOME/fleet.json), joining and leaving while running, and what the HTTP routes need — other
 * hosts' records and a way to run a command on the host that owns one. The fleet's code (and `pg`)
 * is imported only once this host joins: a host that never does pays nothing for it.
 * Another host's command runs here as an in-process request to this daemon's own API, so it gets
 * exactly the checks a local request gets; the request is marked so it is never forwarded again.
 */
import { MusterError } from '../errors/index.ts';
import type { EventBus } from '../events/index.ts';
import type { CurrentRecords, FleetLink, FleetStatus, CommandAnswer, CommandKind, OutboxRepository } from '../fleet/index.ts';
import { fleetFiles, readFleetConfig, removeFleetConfig, writeFleetConfig, loadOrCreateHostId, defaultHostName, type FleetConfig } from '../fleet/config.ts';
import { checkFleetUrl, redactFleetUrl } from '../fleet/url.ts';
import { isHostName } from '../fleet/types.ts';
import { fleetRequest } from './fleet-requests.ts';
import { FLEET_COMMAND_HEADER, type FleetView } from '../server/fleet-routing.ts';
import { existsSync } from 'node:fs';

/** How long `fleet join` waits for the database before giving up (nothing is saved then). */
const JOIN_TIMEOUT_MS = 10_000;

export interface FleetControl extends FleetView {
  /** `{ joined: false }`, or the link's status with where its URL came from. */
  status(): (FleetStatus & { source: 'file' | 'env' }) | { joined: false; host: { id: string | null; name: string } };
  join(url: string, name: string | undefined): Promise<FleetStatus>;
  leave(): Promise<{ left: boolean; removedFromDatabase: boolean }>;
  /** The setting fleetAcceptCommands changed. */
  settingsChanged(): void;
  /** Starts the link when this host already belongs to a fleet (does not wait for the database). */
  start(): void;
  close(): Promise<void>;
}

export interface FleetControlOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  version: string;
  bus: EventBus;
  outbox: OutboxRepository;
  current(): Promise<CurrentRecords>;
  acceptCommands(): Promise<boolean>;
  /** The daemon's own API with its token, for running commands as local requests (null until the server listens). */
  request(): ((path: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>) | null;
  log(line: string): void;
  /** Tests: the database driver. Default: node-postgres. */
  driver?: import('../fleet/index.ts').FleetDriver;
}

export function createFleetControl(opts: FleetControlOptions): FleetControl {
  const files = fleetFiles(opts.home);
  let link: FleetLink | null = null;
  let config: FleetConfig | null = null;
  let switching: Promise<unknown> = Promise.resolve();

  /** Serialises join, leave and close: one change of membership at a time. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = switching.then(fn, fn);
    switching = next.catch(() => {});
    return next;
  };

  async function execute(kind: CommandKind, args: Record<string, unknown>, fromHost: string): Promise<CommandAnswer> {
    const req = fleetRequest(kind, args);
    if ('answer' in req) return req.answer;
    const send = opts.request();
    if (!send) return { status: 503, body: { ok: false, error: { code: 'daemon_unreachable', message: 'this host is starting; retry' } } };
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = { [FLEET_COMMAND_HEADER]: fromHost };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    const res = await send(req.path, { method: req.method, headers, body });
    const text = await res.text();
    let answer: unknown = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    return { status: res.status, body: answer };
  }

  async function open(c: FleetConfig): Promise<FleetLink> {
    const { createFleetLink, pgDriver } = await import('../fleet/index.ts');
    const l = createFleetLink({
      url: c.url, name: c.name, hostId: loadOrCreateHostId(files), version: opts.version, driver: opts.driver ?? pgDriver(), outbox: opts.outbox,
      subscribe: (fn) => opts.bus.subscribe(fn), publish: (type, data) => void opts.bus.publish(type, data),
      current: opts.current, execute, acceptCommands: opts.acceptCommands, log: opts.log,
    });
    l.start();
    return l;
  }

  async function stop(): Promise<void> {
    const l = link;
    link = null;
    config = null;
    await l?.close();
    opts.bus.publish('fleet.status.changed', { joined: false, connected: false, name: null, lastError: null });
  }

  const view: FleetView = {
    localName: () => (link ? (config?.name ?? null) : null),
    sessions: (compare) => link?.replica.sessions(compare) ?? [],
    session: (id) => link?.replica.session(id),
    pages: () => link?.replica.pages() ?? [],
    page: (id) => link?.replica.page(id),
    goals: () => link?.replica.goals() ?? [],
    goal: (ref) => link?.replica.goal(ref),
    async run(owner, kind, args) {
      if (!link) throw new MusterError('fleet_not_joined', 'this host is not in a fleet');
      return link.send(owner.hostId, kind, args);
    },
  };

  return {
    ...view,
    status() {
      if (!link || !config) {
        let id: string | null = null;
        try {
          id = existsSync(files.hostId) ? loadOrCreateHostId(files) : null;
        } catch {
          id = null;
        }
        return { joined: false, host: { id, name: config?.name ?? defaultHostName() } };
      }
      return { ...link.status(), source: config.source };
    },
    join(url, name) {
      return serial(async () => {
        const current = readFleetConfig(files, opts.env);
        if (current?.source === 'env') throw new MusterError('fleet_from_env', 'this daemon takes its fleet from MUSTER_FLEET_URL; change that variable (and restart the daemon) instead');
        if (name !== undefined && !isHostName(name)) throw new MusterError('invalid_argument', 'the host name must be 1 to 64 characters, without control characters or surrounding spaces');
        const checked = checkFleetUrl(url);
        for (const f of checked.files) if (!existsSync(f)) throw new MusterError('fleet_url_invalid', `the URL names ${f}, which does not exist`);
        const next: FleetConfig = { url: checked.url, name: name ?? current?.name ?? defaultHostName(), source: 'file' };
        await stop();
        // Another database knows nothing of what the outbox says was sent: queue everything again.
        if (current?.url !== next.url) opts.outbox.clear();
        const l = await open(next);
        try {
          await Promise.race([
            l.firstConnection(),
            new Promise((_, reject) => setTimeout(() => reject(new MusterError('fleet_unreachable', `no answer from ${redactFleetUrl(url)} within ${JOIN_TIMEOUT_MS / 1000} s`)), JOIN_TIMEOUT_MS).unref()),
          ]);
        } catch (e) {
          await l.close();
          // Back to the fleet this host was in, if any: a failed join changes nothing.
          if (current) {
            config = current;
            link = await open(current);
          }
          throw e;
        }
        writeFleetConfig(files, next);
        link = l;
        config = next;
        opts.log(`[fleet] joined the fleet at ${checked.redacted} as "${next.name}"`);
        return l.status();
      });
    },
    leave() {
      return serial(async () => {
        const current = readFleetConfig(files, opts.env);
        if (current?.source === 'env') throw new MusterError('fleet_from_env', 'this daemon takes its fleet from MUSTER_FLEET_URL; unset it and restart the daemon to leave');
        if (!link && !current) return { left: false, removedFromDatabase: false };
        const removed = link ? await link.removeSelf() : false;
        await stop();
        opts.outbox.clear();
        removeFleetConfig(files);
        opts.log('[fleet] left the fleet');
        return { left: true, removedFromDatabase: removed };
      });
    },
    settingsChanged() {
      link?.announce();
    },
    start() {
      void serial(async () => {
        let c: FleetConfig | null;
        try {
          c = readFleetConfig(files, opts.env);
        } catch (e) {
          opts.log(`[fleet] ${(e as Error).message}`);
          return;
        }
        if (!c) return;
        try {
          checkFleetUrl(c.url);
          config = c;
          link = await open(c);
        } catch (e) {
          opts.log(`[fleet] cannot start the fleet link: ${(e as Error).message}`);
        }
      });
    },
    close() {
      return serial(async () => {
        const l = link;
        link = null;
        await l?.close();
      });
    },
  };
}
