/**
 * The CLI contract: exactly one JSON envelope on stdout on success; failures as
 * `{ ok: false, error: { code, message } }` on stderr with a non-zero exit; usage on stderr only.
 */
import { MusterError, toErrorEnvelope } from '../errors/index.ts';

export function printOk(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ok: true, ...fields })}\n`);
}

/** Exit codes: 1 failure, 2 usage. */
export function exitCodeFor(e: unknown): number {
  return e instanceof MusterError && e.code === 'usage' ? 2 : 1;
}

export function printError(e: unknown): number {
  const { body } = toErrorEnvelope(e);
  if (!(e instanceof MusterError)) {
    // Unknown failures: say so plainly, keep the stack out of the envelope but available for debugging.
    body.error.message = `unexpected failure: ${(e as Error)?.message ?? String(e)}`;
    if (process.env.MUSTER_DEBUG) process.stderr.write(`${(e as Error)?.stack ?? ''}\n`);
  }
  process.stderr.write(`${JSON.stringify(body)}\n`);
  return exitCodeFor(e);
}

export function usageError(message: string): MusterError {
  return new MusterError('usage', `${message}; run \`muster --help\``);
}
