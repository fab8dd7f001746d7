/**
 * Whether a `codex exec` has taken its prompt: its rollout records the prompt (an `item_completed`
 * UserMessage, or an older build's `user_message` event) after the turn's `task_started`.
 *
 * Observed with codex 0.171.0: a SIGINT that lands before that — from the moment the exec holds its
 * lock until its prompt is recorded, about 0.1–0.2 s — is swallowed, and so is every later SIGINT; the
 * turn then runs to its end. A SIGINT after it aborts the turn (`turn_aborted`) within ~0.15 s.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** How much of the rollout's end is read: a turn's first records are a few KiB; a larger tail means the turn is well under way. */
const TAIL_BYTES = 256 * 1024;
const TASK_STARTED = Buffer.from('"type":"task_started"');
const PROMPTS = [Buffer.from('"item":{"type":"UserMessage"'), Buffer.from('"type":"user_message"')];

/** True when the rollout's last turn has recorded its prompt; false while it has not, or the rollout cannot be read yet. */
export function execPromptRecorded(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false; // not written yet
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const tail = Buffer.allocUnsafe(length);
    const got = readSync(fd, tail, 0, length, size - length);
    return promptAfterTaskStart(tail.subarray(0, got), size > length);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** On a rollout's tail: a prompt after the last `task_started`; a tail cut from a larger file with no `task_started` is a turn well under way. */
export function promptAfterTaskStart(tail: Buffer, truncated: boolean): boolean {
  const start = tail.lastIndexOf(TASK_STARTED);
  if (start === -1) return truncated;
  return PROMPTS.some((p) => tail.indexOf(p, start) !== -1);
}
