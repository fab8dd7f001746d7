/**
 * The adapter contract (and its source checks) against the OpenCode source: a hand-made store with a dormant session, one
 * whose process died mid-reply (dormant `stuck`), and a
 * live one held by a real child process whose argv names it (`opencode <project> -s <id>`), found through
 * the real process table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { runAdapterContract } from '../contract.test-support.ts';
import { opencode } from './index.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage } from './discovery/fixture-store.test-support.ts';
import { createOpenCodeSource } from './discovery/source.ts';

runAdapterContract(opencode, async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-contract-'));
  const st = createFixtureStore(home);
  const now = Date.now();
  const dormantId = fixtureSessionId(0xd0);
  const liveId = fixtureSessionId(0x11);
  st.addSession({ id: dormantId, directory: home, title: 'dormant one', createdMs: now - 60_000 });
  st.addMessage(dormantId, 'msg_1', now - 59_000, userMessage(now - 59_000));
  st.addMessage(dormantId, 'msg_2', now - 58_000, assistantMessage(now - 58_000, { completedMs: now - 57_000, finish: 'stop' }));
  // Its process died mid-reply (the assistant message never completed): dormant and stuck, with the cause.
  const diedId = fixtureSessionId(0xde);
  st.addSession({ id: diedId, directory: path.join(home, 'elsewhere'), title: 'died mid-reply', createdMs: now - 30_000 });
  st.addMessage(diedId, 'msg_3', now - 29_000, userMessage(now - 29_000));
  st.addMessage(diedId, 'msg_4', now - 28_000, assistantMessage(now - 28_000, {}));
  st.addSession({ id: liveId, directory: home, title: 'live one', createdMs: now - 1000 });
  st.close();
  // A stand-in OpenCode process: argv[0] is `opencode` and it names the session, like `opencode -s <id>`.
  const hold = path.join(home, 'hold.cjs');
  fs.writeFileSync(hold, 'setInterval(() => {}, 1 << 30);\n');
  const child = spawn(process.execPath, [hold, '-s', liveId], { argv0: 'opencode', cwd: home, stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => { child.once('spawn', resolve); child.once('error', reject); });
  const source = createOpenCodeSource({ home, env: {} });
  return {
    source, dormantId, liveId,
    async cleanup() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
});
