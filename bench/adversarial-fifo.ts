/**
 * Issue 13, point 1 — "FIFO in every read location", rerun against the real built daemon: for each
 * place a source reads a file in a harness home, and for each of a FIFO, a unix socket and a link to
 * /dev/zero, a fresh home gets that entry (beside a real Claude session), `muster serve` starts, and
 * the run records whether the first listing and /api/health answered and how fast, the
 * diagnostics counters (notRegularFiles per harness), and whether `muster down` stopped it. A last
 * run puts a FIFO in every location at once. A frozen daemon is killed by pid.
 * Env: BENCH_KINDS (comma list of fifo,socket,device; default all).
 * Run: npm run build && node --import tsx bench/adversarial-fifo.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { userLine, writeTranscript } from '../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createFixtureStore, fixtureSessionId } from '../src/harnesses/opencode/discovery/fixture-store.test-support.ts';
import { makeSpecialFile, SPECIAL_KINDS } from '../test/fakes/special-files.ts';
import type { SpecialKind } from '../test/fakes/special-files.ts';
import { envFor, isAlive, runCli, tempHome } from '../test/e2e/kit.ts';
import { startDaemon } from './corpus/daemon-kit.ts';
import type { RunningDaemon } from './corpus/daemon-kit.ts';

const SID = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
const BAD = '01a22b42-6e14-7f62-8c74-d16f2d172825';
const OC = fixtureSessionId(9);
/** Per request; a daemon blocked in open() never answers. */
const TIMEOUT_MS = 3000;

interface Location {
  name: string;
  /** The hostile entry's path in the temp home `h`; `prepare` may first lay down what it sits beside. */
  path(h: string): string;
  prepare?(h: string): void;
}

const rollout = (id: string): string => `rollout-2026-11-30T06-52-03-${id}.jsonl`;
const sqliteStore = (p: string, sql: string): void => {
  mkdirSync(join(p, '..'), { recursive: true });
  new Database(p).exec(sql).close();
};

const LOCATIONS: Location[] = [
  { name: 'claude sessions/999999.json', path: (h) => join(h, '.claude', 'sessions', '999999.json') },
  { name: 'claude projects/<slug>/<id>.jsonl', path: (h) => join(h, '.claude', 'projects', '-tmp-proj', `${BAD}.jsonl`) },
  { name: "git <session cwd>/.git/HEAD", path: (h) => join(h, 'repo', '.git', 'HEAD') },
  { name: 'codex session_index.jsonl', path: (h) => join(h, '.codex', 'session_index.jsonl') },
  { name: 'codex sessions/…/rollout-*.jsonl', path: (h) => join(h, '.codex', 'sessions', '2026', '11', '30', rollout(BAD)) },
  { name: 'codex archived_sessions/rollout-*.jsonl', path: (h) => join(h, '.codex', 'archived_sessions', rollout(BAD)) },
  { name: 'codex state_5.sqlite', path: (h) => join(h, '.codex', 'state_5.sqlite') },
  {
    name: 'codex state_5.sqlite-wal (real store)', path: (h) => join(h, '.codex', 'state_5.sqlite-wal'),
    prepare: (h) => sqliteStore(join(h, '.codex', 'state_5.sqlite'), 'CREATE TABLE threads (id TEXT)'),
  },
  { name: 'codex goals_1.sqlite (daemon never reads it)', path: (h) => join(h, '.codex', 'goals_1.sqlite') },
  { name: 'codex thread-writer-locks/<id>.lock', path: (h) => join(h, '.codex', 'thread-writer-locks', `${BAD}.lock`) },
  { name: 'opencode opencode.db', path: (h) => join(h, '.local', 'share', 'opencode', 'opencode.db') },
  {
    name: 'opencode opencode.db-shm (real store)', path: (h) => join(h, '.local', 'share', 'opencode', 'opencode.db-shm'),
    prepare: (h) => createFixtureStore(join(h, '.local', 'share', 'opencode')).close(),
  },
  { name: 'opencode storage/session/<p>/ses_*.json', path: (h) => join(h, '.local', 'share', 'opencode', 'storage', 'session', 'proj', `${OC}.json`) },
  {
    name: 'opencode storage/message/<s>/msg_*.json', path: (h) => join(h, '.local', 'share', 'opencode', 'storage', 'message', OC, 'msg_01.json'),
    prepare: (h) => writeJson(join(h, '.local', 'share', 'opencode', 'storage', 'session', 'proj', `${OC}.json`), { id: OC, directory: '/p', title: 'x', time: { created: 1 } }),
  },
  { name: 'pi sessions/<cwd>/<ts>_<id>.jsonl', path: (h) => join(h, '.pi', 'agent', 'sessions', '--w--', `2026-11-30T08-00-00-000Z_${BAD}.jsonl`) },
  { name: 'pi/omp $MUSTER_PI_STATUS_DIR/<pid>.json', path: (h) => join(h, 'pi-status', '4242.json') },
  { name: 'omp agent/sessions/<cwd>/<ts>_<id>.jsonl', path: (h) => join(h, '.omp', 'agent', 'sessions', '-p', `2026-11-30T08-00-00-000Z_${BAD}.jsonl`) },
  { name: 'omp run/daemons/<h>/clients/<pid>-<u>.json', path: (h) => join(h, '.omp', 'run', 'daemons', 'a1b2', 'clients', `4242-${BAD}.json`) },
];

function writeJson(p: string, v: object): void {
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, JSON.stringify(v));
}

/** A Claude session whose cwd is a repository, so the git reader reads its .git/HEAD. */
function baseline(h: string): void {
  mkdirSync(join(h, 'repo', '.git'), { recursive: true });
  writeTranscript(join(h, '.claude'), SID, [userLine('a real session', { sessionId: SID, cwd: join(h, 'repo') })], '/tmp/proj');
}

async function getJson(d: RunningDaemon, path: string): Promise<{ ms: number; body: Record<string, unknown> } | null> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${d.base}${path}`, { headers: { authorization: `Bearer ${d.token}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { ms: performance.now() - t0, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

interface Row { location: string; kind: string; listMs: string; healthMs: string; listed: string; notRegular: string; skipped: string; down: string }

async function run(location: string, kind: string, place: (h: string) => void): Promise<Row> {
  const t = tempHome('muster-adversarial-');
  try {
    baseline(t.home);
    place(t.home);
    const env = envFor(t.home, { MUSTER_PI_STATUS_DIR: join(t.home, 'pi-status') });
    const d = await startDaemon(env);
    // The first listing runs every source once (it waits for the hub's first scan); health comes after it.
    const list = await getJson(d, '/api/sessions');
    const health = await getJson(d, '/api/health');
    const diag = await getJson(d, '/api/diagnostics');
    const sources = (diag?.body.sources ?? []) as Array<{ harness: string; notRegularFiles?: number; filesSkipped?: number }>;
    const counter = (k: 'notRegularFiles' | 'filesSkipped'): string =>
      sources.filter((s) => (s[k] ?? 0) > 0).map((s) => `${s.harness}=${s[k]}`).join(' ') || '0';
    const listed = ((list?.body.sessions ?? []) as Array<{ id: string }>).some((s) => s.id === SID);
    const down = await runCli(['down'], env, { timeoutMs: 15_000 });
    const stopped = down.code === 0 && !isAlive(d.pid);
    if (isAlive(d.pid)) d.child.kill('SIGKILL');
    await d.stop().catch(() => undefined);
    return {
      location, kind,
      listMs: list ? String(Math.round(list.ms)) : 'TIMEOUT',
      healthMs: health ? String(Math.round(health.ms)) : 'TIMEOUT',
      listed: listed ? 'yes' : 'no',
      notRegular: diag ? counter('notRegularFiles') : '-',
      skipped: diag ? counter('filesSkipped') : '-',
      down: stopped ? 'ok' : `FAILED (${down.json.error?.code ?? down.code})`,
    };
  } finally {
    t.cleanup();
  }
}

const kinds = (process.env.BENCH_KINDS?.split(',') ?? [...SPECIAL_KINDS]).filter((k): k is SpecialKind => (SPECIAL_KINDS as readonly string[]).includes(k));
const rows: Row[] = [];
for (const loc of LOCATIONS) {
  for (const kind of kinds) {
    rows.push(await run(loc.name, kind, (h) => { loc.prepare?.(h); makeSpecialFile(loc.path(h), kind); }));
  }
}
// Everything at once (FIFOs; the real stores' side files are left out: their stores are FIFOs here).
rows.push(await run('every location at once', 'fifo', (h) => {
  for (const loc of LOCATIONS) if (!loc.prepare) makeSpecialFile(loc.path(h), 'fifo');
}));

const cols: Array<[keyof Row, string]> = [
  ['location', 'location'], ['kind', 'kind'], ['listMs', 'first list ms'], ['healthMs', 'health ms'], ['listed', 'session listed'],
  ['notRegular', 'notRegularFiles'], ['skipped', 'filesSkipped'], ['down', 'muster down'],
];
const width = (k: keyof Row, title: string): number => Math.max(title.length, ...rows.map((r) => r[k].length));
console.log(cols.map(([k, title]) => title.padEnd(width(k, title))).join('  '));
for (const r of rows) console.log(cols.map(([k, title]) => r[k].padEnd(width(k, title))).join('  '));
const frozen = rows.filter((r) => r.healthMs === 'TIMEOUT' || r.down !== 'ok');
console.log(`\n${rows.length} daemons, ${frozen.length} frozen or not stopped; request timeout ${TIMEOUT_MS} ms`);
console.log('A link to /dev/zero named like a session file is refused as a link leading outside the home (filesSkipped);');
console.log('the git reader (a cwd\'s .git/HEAD) keeps no counter: it reports no branch.');
process.exitCode = frozen.length === 0 ? 0 : 1;
