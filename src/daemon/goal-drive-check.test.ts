import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDriveCheck } from './goal-drive-check.ts';
import { adapterFor } from '../harnesses/registry.ts';
import { createInstaller } from '../hooks/install/index.ts';
import { readStatusAsset } from '../harnesses/status-assets/index.ts';
import { emptyTokens, type Harness, type Session } from '../core/session.ts';
import type { LaunchRecord } from '../launch/types.ts';

const PI_ID = '01a22b3e-21fc-76aa-a3ce-53d61728d075';

function session(harness: Harness, id: string, live: boolean): Session {
  return {
    harness, id, title: 't', cwd: '/w', repoRoot: null, branch: null, live, pid: live ? 42 : null, pids: live ? [42] : [], status: live ? 'idle' : 'ended',
    waitingFor: null, statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null,
    canEnd: live, resumeArgv: null,
  };
}

test('a live session nothing reports the turns of is refused with what to run; wrapped or hooked ones are drivable', async () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-drive-'));
  try {
    const env = { HOME: home };
    const sessions = new Map<string, Session>([[PI_ID, session('pi', PI_ID, true)]]);
    const launches: LaunchRecord[] = [];
    const check = createDriveCheck({ env, session: (id) => sessions.get(id), runningLaunches: async () => launches });

    const refused = await check(PI_ID, 'pi');
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.fix.includes('muster hooks install --harness pi'));
    assert.ok(!refused.ok && refused.fix.includes(`muster pi --session ${PI_ID}`), 'or relaunch it through the wrapper');
    assert.match(!refused.ok ? refused.message : '', /never advance/);

    launches.push({ id: 'lch_0000000000010123456789', harness: 'pi', name: null, pid: 42, startedAt: '', cwd: '/w', sessionId: PI_ID, endedAt: null, exitCode: null });
    assert.deepEqual(await check(PI_ID, 'pi'), { ok: true, note: null }, 'launched by muster pi: the extension reports its turns');
    launches.length = 0;

    // Installed for every pi started the ordinary way.
    const a = adapterFor('pi');
    const installer = createInstaller(join(home, '.muster', 'hooks'));
    for (const e of a.installTarget({ env, homes: a.homes(env), hookArgv: ['/usr/bin/node', '/m.js', 'hook'], asset: (n) => readStatusAsset(n) }).edits) installer.install(e);
    assert.deepEqual(await check(PI_ID, 'pi'), { ok: true, note: null });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a dormant session is accepted, with a note saying how it will be driven', async () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-drive-'));
  try {
    const check = createDriveCheck({ env: { HOME: home }, session: () => session('pi', PI_ID, false), runningLaunches: async () => [] });
    const d = await check(PI_ID, 'pi');
    assert.ok(d.ok);
    assert.match(d.ok ? (d.note ?? '') : '', new RegExp(`muster pi --session ${PI_ID}`));
    // An unknown session (e.g. about to be started with injected hooks) is accepted too.
    const unknown = createDriveCheck({ env: { HOME: home }, session: () => undefined, runningLaunches: async () => [] });
    assert.equal((await unknown('11111111-1111-4111-8111-111111111111', 'claude')).ok, true);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a promptable session is drivable by its server only where its turns are judged from its transcript (a Codex daemon thread is not)', async () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-drive-'));
  try {
    const CX = '01a22b3e-21fc-76aa-a3ce-53d61728d0c0';
    const s = { ...session('codex', CX, true), promptable: true };
    const judged = createDriveCheck({ env: { HOME: home }, session: () => s, runningLaunches: async () => [] });
    assert.deepEqual(await judged(CX, 'codex'), { ok: true, note: null });
    const hooksOnly = createDriveCheck({ env: { HOME: home }, session: () => s, judgesServerTurns: (h) => h === 'opencode', runningLaunches: async () => [] });
    const d = await hooksOnly(CX, 'codex');
    assert.equal(d.ok, false);
    assert.ok(!d.ok && d.fix.includes('muster hooks install --harness codex'));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
