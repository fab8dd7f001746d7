/**
 * The adapter contract (and its source checks) against the omp source, with a real process table: the live session
 * belongs to a real child run as `node …/omp` (omp keeps its real argv) with a run file of its pid.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdapterContract } from '../contract.test-support.ts';
import { omp } from './index.ts';
import { createProc } from '../../discovery/proc/index.ts';
import { ompSessionDirName } from '../pi/discovery/index.ts';
import { assistant, header, ompExit, ompTitle, sessionFileName, user, writeSession } from '../pi/discovery/fixture-records.test-support.ts';
import { createOmpSource } from './discovery/omp-source.ts';

const DORMANT = '01a22b3f-1418-70af-926e-e05b29b6c8c0';
const LIVE = '01a22b40-4ea0-72fa-aefe-5e643f0ed574';

runAdapterContract(omp, async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'muster-omp-contract-')));
  const home = path.join(root, '.omp');
  const project = path.join(root, 'project-omp');
  fs.mkdirSync(project);
  const script = path.join(root, 'bin', 'omp');
  fs.mkdirSync(path.dirname(script));
  fs.writeFileSync(script, 'setInterval(() => {}, 1e6);\n');
  const dir = path.join(home, 'agent', 'sessions', ompSessionDirName(project));
  const t = new Date(Date.now() - 86_400_000).toISOString();
  const dormantFile = writeSession(path.join(dir, sessionFileName(DORMANT, t)), [ompTitle('', t), header(DORMANT, project, t), user('hello', t), assistant({ ts: t, text: 'hi' }), ompExit(t)]);
  fs.utimesSync(dormantFile, new Date(Date.parse(t)), new Date(Date.parse(t)));
  const child = spawn(process.execPath, [script, '--mode', 'rpc'], { cwd: project, stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const clients = path.join(home, 'run', 'daemons', '0123456789abcdef', 'clients');
  fs.mkdirSync(clients, { recursive: true });
  fs.writeFileSync(path.join(clients, `${child.pid}-66cda080-7843-475a-8125-e3e9429bc5af.json`), JSON.stringify({ pid: child.pid, projectDir: project }));
  const now = new Date().toISOString();
  writeSession(path.join(dir, sessionFileName(LIVE, now)), [ompTitle('live one', now), header(LIVE, project, now), user('go', now)]);
  return {
    source: createOmpSource({ home, statusDir: null, proc: createProc() }),
    dormantId: DORMANT,
    liveId: LIVE,
    async cleanup() {
      child.kill('SIGKILL');
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
});
