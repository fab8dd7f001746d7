/**
 * Desktop notifications through `notify-send` (libnotify). The process runner is injected (the
 * composition root passes a real spawn); availability is probed once with `notify-send --version`.
 */
import type { NotificationChannel, PageNotification } from './channel.ts';

export interface RunResult {
  /** Exit code; null when the process could not start or was killed. */
  code: number | null;
  /** Spawn error or stderr text, for the delivery record. */
  error?: string;
}

export interface DesktopChannelOptions {
  /** Runs argv (no shell) and resolves with its exit; must not throw. */
  run(argv: string[]): Promise<RunResult>;
  /** Executable name or path. Default: 'notify-send'. */
  command?: string;
}

const URGENCY = { low: 'low', normal: 'normal', high: 'critical' } as const;

export function createDesktopChannel(opts: DesktopChannelOptions): NotificationChannel {
  const cmd = opts.command ?? 'notify-send';
  let present: Promise<boolean> | undefined;
  return {
    name: 'desktop',
    available() {
      present ??= opts.run([cmd, '--version']).then((r) => r.code === 0, () => false);
      return present;
    },
    async send(n: PageNotification) {
      const argv = [cmd, '--app-name=Muster', `--urgency=${URGENCY[n.urgency]}`, n.title, `${n.message}\n\n${n.url}`];
      try {
        const r = await opts.run(argv);
        return r.code === 0 ? { ok: true } : { ok: false, error: `${cmd} exited ${r.code ?? 'abnormally'}${r.error ? `: ${r.error.trim().slice(0, 300)}` : ''}` };
      } catch (e) {
        return { ok: false, error: `${cmd} failed: ${(e as Error).message}` };
      }
    },
  };
}
