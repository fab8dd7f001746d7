/**
 * `muster` on a terminal (or `muster tui`): the operator TUI. Finds or starts the daemon, then hands
 * the real terminal, an API caller and an SSE client to createTui. The terminal is restored on every
 * way out: quit, SIGTERM/SIGHUP, an uncaught error (printed after the restore), and process exit.
 */
import { MusterError } from '../../errors/index.ts';
import { colorEnabled, createNodeTerminal, createSseClient, createTui, type TuiApi } from '../../tui/index.ts';
import { answerBody, clientContext, ensureDaemon, locateDaemon, type DaemonLocation } from '../daemon-client.ts';
import { httpJson } from '../http.ts';
import type { CommandContext } from '../command.ts';

type Running = DaemonLocation & { state: 'running' };

export async function run({ env }: CommandContext): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw new MusterError('usage', 'the TUI needs a terminal on stdin and stdout; use `muster ls` or `muster status` in scripts');
  const ctx = clientContext(env);
  let loc: Running = await ensureDaemon(ctx);

  const api: TuiApi = {
    async call(method, path, body) {
      let r;
      try {
        r = await httpJson(`${loc.urls.api}${path}`, { method, token: loc.token, body, timeoutMs: 30_000 });
      } catch {
        // The daemon went away (restart, new port): find it again once, then retry.
        loc = await ensureDaemon(ctx);
        r = await httpJson(`${loc.urls.api}${path}`, { method, token: loc.token, body, timeoutMs: 30_000 });
      }
      return answerBody(r);
    },
  };
  let connects = 0;
  const target = async () => {
    // The first connect uses the daemon just found; a reconnect looks again (it may have moved).
    if (connects++ > 0) {
      const again = await locateDaemon(ctx);
      if (again.state !== 'running') throw new Error(`daemon ${again.state}`);
      loc = again;
    }
    return { url: `${loc.urls.api}/events`, token: loc.token };
  };

  const terminal = createNodeTerminal();
  const tui = createTui({
    api,
    terminal,
    color: colorEnabled(env),
    events: (h) => createSseClient({ target, onMessage: h.onMessage, onState: (s) => h.onState(s) }),
  });
  let crash: unknown = null;
  const onExit = () => terminal.restore();
  const onCrash = (e: unknown) => {
    crash = e;
    tui.stop(1);
  };
  const onSignal = (sig: NodeJS.Signals) => tui.stop(sig === 'SIGHUP' ? 129 : 143);
  process.on('exit', onExit);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  try {
    await tui.start();
    const code = await tui.done;
    if (crash) throw crash;
    return code;
  } finally {
    tui.stop(1);
    process.off('exit', onExit);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
}
