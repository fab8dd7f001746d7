/** Sending a signal the same way on every platform. */
export type KillFn = (pid: number, signal: NodeJS.Signals | 0) => void;

/** Sends `signal`; false when the process is gone (ESRCH). Never lets 0 or a negative pid (process groups) reach kill(). */
export function signalPid(kill: KillFn, pid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    kill(pid, signal);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
}
