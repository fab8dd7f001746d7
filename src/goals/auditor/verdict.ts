/**
 * The audit prompt and the strict reading of the answer. The auditor must answer exactly one JSON
 * object `{ "allDone": boolean, "remaining": string[], "needsUser": boolean }`; anything else is a failed
 * audit (never guessed from prose). One concession: a single ```json fence around that object is
 * unwrapped, because chat models add it even when told not to and the content is still the strict object.
 */
import type { Verdict } from '../types.ts';

/** Longest report sent to the auditor, characters (the tail is kept: the end of a report is the summary). */
export const MAX_REPORT_CHARS = 24_000;

export const AUDIT_SYSTEM = [
  'You are an independent auditor. You judge whether a coding agent has fully achieved an objective,',
  'using only the objective and the agent\'s final report for its latest turn. Do not trust claims',
  'without evidence in the report; list concrete work that remains. Set needsUser to true only when',
  'progress is impossible without a decision or information from the human operator.',
  'Answer with exactly one JSON object and nothing else:',
  '{"allDone": boolean, "remaining": [string, ...], "needsUser": boolean}',
].join(' ');

export function auditPrompt(objective: string, report: string): string {
  const r = report.length > MAX_REPORT_CHARS ? `…${report.slice(-MAX_REPORT_CHARS)}` : report;
  return `OBJECTIVE:\n${objective}\n\nFINAL REPORT OF THE LATEST TURN:\n${r}\n\nAnswer with the JSON object only.`;
}

export type ParsedVerdict = { ok: true; verdict: Verdict } | { ok: false; error: string };

export function parseVerdict(text: string): ParsedVerdict {
  let t = text.trim();
  const fence = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(t);
  if (fence) t = (fence[1] ?? '').trim();
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return { ok: false, error: `the auditor did not answer JSON: ${JSON.stringify(text.slice(0, 120))}` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'the auditor answer is not a JSON object' };
  const o = v as Record<string, unknown>;
  if (typeof o.allDone !== 'boolean') return { ok: false, error: 'the auditor answer lacks a boolean allDone' };
  if (typeof o.needsUser !== 'boolean') return { ok: false, error: 'the auditor answer lacks a boolean needsUser' };
  if (!Array.isArray(o.remaining) || !o.remaining.every((x) => typeof x === 'string')) {
    return { ok: false, error: 'the auditor answer lacks remaining as an array of strings' };
  }
  const remaining = (o.remaining as string[]).map((s) => s.trim()).filter((s) => s !== '');
  return { ok: true, verdict: { allDone: o.allDone, remaining, needsUser: o.needsUser } };
}
