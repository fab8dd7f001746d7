/**
 * Input rules shared by every front-end (MCP tools, HTTP API, CLI): lengths are bounded so a page
 * fits an inbox and a notification; text is kept verbatim (it is plain text everywhere it is shown).
 * Validators return a result instead of throwing, so the MCP layer can turn them into tool errors.
 */
import { NOTICE_LEVELS, URGENCIES, type NoticeLevel, type Urgency } from './types.ts';

export const LIMITS = {
  /** Characters of a question or notice message. */
  question: 4000,
  context: 8000,
  choices: 20,
  choice: 200,
  answer: 8000,
  /** Pages one listing returns when it names no limit, and the most it may ask for. */
  listed: 200,
  listedMax: 1000,
} as const;

export interface AskInput {
  question: string;
  choices?: string[] | undefined;
  urgency?: Urgency | undefined;
  context?: string | undefined;
}

export interface NotifyInput {
  message: string;
  level: NoticeLevel;
}

/** The operator's reply: free text, or the index (0-based) of one of the page's choices. */
export interface AnswerInput {
  text?: string | undefined;
  choice?: number | undefined;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const bad = (message: string): { ok: false; message: string } => ({ ok: false, message });

function checkText(v: unknown, name: string, max: number, required: boolean): string | null | { error: string } {
  if (v === undefined || v === null) return required ? { error: `${name} is required` } : null;
  if (typeof v !== 'string') return { error: `${name} must be a string` };
  if (required && v.trim() === '') return { error: `${name} must not be empty` };
  if (v.length > max) return { error: `${name} is longer than ${max} characters` };
  return v;
}

const isErr = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && 'error' in v;

export function checkAsk(input: Record<string, unknown>): Checked<AskInput> {
  const question = checkText(input.question, 'question', LIMITS.question, true);
  if (isErr(question)) return bad(question.error);
  const context = checkText(input.context, 'context', LIMITS.context, false);
  if (isErr(context)) return bad(context.error);
  let choices: string[] | undefined;
  if (input.choices !== undefined && input.choices !== null) {
    if (!Array.isArray(input.choices)) return bad('choices must be an array of strings');
    if (input.choices.length < 2 || input.choices.length > LIMITS.choices) return bad(`choices must list 2 to ${LIMITS.choices} options`);
    for (const c of input.choices as unknown[]) {
      if (typeof c !== 'string' || c.trim() === '' || c.length > LIMITS.choice) return bad(`each choice must be a non-empty string of at most ${LIMITS.choice} characters`);
    }
    choices = input.choices as string[];
  }
  const urgency = input.urgency ?? 'normal';
  if (!(URGENCIES as readonly unknown[]).includes(urgency)) return bad(`urgency must be one of ${URGENCIES.join(', ')}`);
  return { ok: true, value: { question: question as string, choices, urgency: urgency as Urgency, context: context ?? undefined } };
}

export function checkNotify(input: Record<string, unknown>): Checked<NotifyInput> {
  const message = checkText(input.message, 'message', LIMITS.question, true);
  if (isErr(message)) return bad(message.error);
  const level = input.level ?? 'info';
  if (!(NOTICE_LEVELS as readonly unknown[]).includes(level)) return bad(`level must be one of ${NOTICE_LEVELS.join(', ')}`);
  return { ok: true, value: { message: message as string, level: level as NoticeLevel } };
}

/** Resolves an answer against the page's choices: exactly one of text or choice. */
export function checkAnswer(input: Record<string, unknown>, choices: string[] | null): Checked<{ text: string; choice: number | null }> {
  const hasText = input.text !== undefined && input.text !== null;
  const hasChoice = input.choice !== undefined && input.choice !== null;
  if (hasText === hasChoice) return bad('send exactly one of text (a string) or choice (the 0-based index of one of the page\'s choices)');
  if (hasChoice) {
    const i = input.choice;
    if (!choices) return bad('this page offers no choices; answer with text');
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= choices.length) return bad(`choice must be an integer from 0 to ${choices.length - 1}`);
    return { ok: true, value: { text: choices[i] as string, choice: i } };
  }
  const text = checkText(input.text, 'text', LIMITS.answer, true);
  if (isErr(text)) return bad(text.error);
  return { ok: true, value: { text: text as string, choice: null } };
}
