/**
 * The checks of a new session's text before anything runs: names are labels, prompts are data.
 * Both end up as single arguments of the harness's command (never through a shell); what an argument
 * cannot hold (NUL) or a label should not (control characters, a leading '-' that reads as an
 * option) is refused with `invalid_argument`.
 */
import { MusterError } from '../errors/index.ts';
import { MAX_OBJECTIVE } from '../goals/index.ts';
import type { NewGoal } from './types.ts';

/** Longest session name, characters. */
export const MAX_NAME = 80;
/**
 * Longest first prompt, characters: it becomes one argument of the harness's command, and Linux caps
 * one argument at 128 KiB (32 000 characters are at most ~96 KiB of UTF-8). The HTTP body limit
 * (64 KiB) comes first for most text.
 */
export const MAX_PROMPT = 32_000;

// eslint-disable-next-line no-control-regex -- a label carries no control characters
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A session name: 1–80 characters, no control character, not starting with '-'; absent or blank → null. */
export function sessionName(v: string | undefined): string | null {
  if (v === undefined) return null;
  const name = v.trim();
  if (name === '') return null;
  if (name.length > MAX_NAME) throw new MusterError('invalid_argument', `a session name is at most ${MAX_NAME} characters`);
  if (CONTROL.test(name)) throw new MusterError('invalid_argument', 'a session name cannot contain control characters (newlines, tabs)');
  if (name.startsWith('-')) throw new MusterError('invalid_argument', 'a session name cannot start with "-"');
  return name;
}

/** The first prompt, verbatim (only a blank one counts as none); no NUL, at most MAX_PROMPT characters. */
export function firstPrompt(v: string | undefined): string | null {
  if (v === undefined || v.trim() === '') return null;
  if (v.length > MAX_PROMPT) throw new MusterError('payload_too_large', `a first prompt is at most ${MAX_PROMPT} characters`);
  if (v.includes('\0')) throw new MusterError('invalid_argument', 'a prompt cannot contain NUL characters');
  return v;
}

/** The goal's objective checked up front (the goals capability checks it again when it sets it). */
export function newGoal(g: NewGoal | undefined): NewGoal | null {
  if (g === undefined) return null;
  const objective = g.objective.trim();
  if (objective === '') throw new MusterError('invalid_argument', 'the goal is empty; say what "done" means');
  if (objective.length > MAX_OBJECTIVE) throw new MusterError('invalid_argument', `the goal is longer than ${MAX_OBJECTIVE} characters`);
  if (objective.includes('\0')) throw new MusterError('invalid_argument', 'a goal cannot contain NUL characters');
  return { ...g, objective };
}
