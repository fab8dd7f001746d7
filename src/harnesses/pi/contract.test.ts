/**
 * The adapter contract (and its source checks) against the pi source, with a real process table: the live session
 * belongs to a real child that looks like pi does (node with its title rewritten to "pi").
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdapterContract } from '../contract.test-support.ts';
import { pi } from './index.ts';
import { createProc } from '../../discovery/proc/index.ts';
import { createPiSource } from './discovery/pi-source.ts';
import { piSessionDirName } from './discovery/session-files.ts';
import { assistant, header, sessionFileName, user, writeSession } from './discovery/fixture-records.test-support.ts';

const DORMANT = '01a22b3e-21fc-76aa-a3ce-53d61728d075';
const LIVE = '01a22b44-a76b-74d9-abab-032e3da72c1f';

runAdapterContract(pi, async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-contract-')));
  const home = path.join(root, 'agent');
  const project = path.join(root, 'project pi');
  const old = path.join(root, 'old');
  fs.mkdirSync(project);
  fs.mkdirSync(old);
  const t = new Date(Date.now() - 86_400_000).toISOString();
  const dormantFile = writeSession(path.join(home, 'sessions', piSessionDirName(old), sessionFileName(DORMANT, t)), [header(DORMANT, old, t), user('hello', t), assistant({ ts: t, text: 'hi' })]);
  fs.utimesSync(dormantFile, new Date(Date.parse(t)), new Date(Date.parse(t)));
  const child = spawn(process.execPath, ['-e', "process.title = 'pi'; setInterval(() => {}, 1e6)"], { cwd: project, stdio: 'ignore' });
  // Node sets the title after startup, which can take seconds on a loaded machine: wait for it (bounded).
  const proc = createProc();
  for (const deadline = Date.now() + 15_000; proc.read(child.pid ?? -1)?.comm !== 'pi' && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
  const now = new Date().toISOString();
  writeSession(path.join(home, 'sessions', piSessionDirName(project), sessionFileName(LIVE, now)), [header(LIVE, project, now), user('go', now), assistant({ ts: now, text: 'done' })]);
  return {
    source: createPiSource({ home, statusDir: null, proc }),
    dormantId: DORMANT,
    liveId: LIVE,
    async cleanup() {
      child.kill('SIGKILL');
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
});
