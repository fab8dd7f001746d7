/**
 * The search query language, parsed into a safe FTS5 expression and filters. Pure; never throws:
 * a query it cannot read comes back as `{ ok: false, message }` saying what to fix.
 *
 *   words            every word must match (AND); case and diacritics ignored
 *   "exact phrase"   the words in this order
 *   prefix*          words starting with `prefix`
 *   harness:claude   role:user   repo:muster   branch:main   (repeat a filter to allow either value)
 *   since:2026-11-01 until:2026-11-30   since:7d (days, h hours, w weeks back from now)
 *
 * User text reaches FTS5 only inside double-quoted strings (quotes doubled), so FTS5 operators
 * (AND, OR, NEAR, column filters, ^) in a query are plain words, never syntax.
 */
import { HARNESSES, type Harness } from '../harnesses/registry.ts';
import { MESSAGE_ROLES, type MessageRole } from '../core/transcript-message.ts';
import type { CompiledQuery } from './types.ts';

export type ParseResult = { ok: true; query: CompiledQuery } | { ok: false; message: string };

/** Longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 1000;
/** Most words and phrases in one query. */
export const MAX_TERMS = 32;

const FILTERS = ['harness', 'repo', 'branch', 'role', 'since', 'until'] as const;
type FilterKey = (typeof FILTERS)[number];
const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };

interface Token {
  kind: 'word' | 'phrase' | 'filter';
  text: string;
  key?: FilterKey;
}

const fail = (message: string): ParseResult => ({ ok: false, message });
const isFilterKey = (k: string): k is FilterKey => (FILTERS as readonly string[]).includes(k);
/** Whether FTS5's unicode61 tokenizer finds at least one token in `s`. */
const hasToken = (s: string): boolean => /[\p{L}\p{N}]/u.test(s);
const ftsString = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** Splits the query into words, phrases and filters; a message on a quote left open. */
function tokenize(input: string): Token[] | string {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) return `the quote opened at character ${i + 1} is never closed: close it or drop it`;
      out.push({ kind: 'phrase', text: input.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < input.length && !/\s/.test(input[j] as string)) {
      if (input[j] === '"') break;
      j++;
    }
    const word = input.slice(i, j);
    const colon = word.indexOf(':');
    const key = colon > 0 ? word.slice(0, colon).toLowerCase() : '';
    if (isFilterKey(key)) {
      let value = word.slice(colon + 1);
      // `repo:"my repo"`: a quoted value.
      if (value === '' && input[j] === '"') {
        const end = input.indexOf('"', j + 1);
        if (end < 0) return `the quote after ${key}: is never closed`;
        value = input.slice(j + 1, end);
        j = end + 1;
      }
      out.push({ kind: 'filter', key, text: value });
    } else out.push({ kind: 'word', text: word });
    i = j;
  }
  return out;
}

/** Epoch ms of a `since:`/`until:` value: a date (UTC day), an ISO time, or a span back from now. */
function dateOf(key: 'since' | 'until', value: string, now: number): number | string {
  const span = /^(\d{1,4})([hdw])$/i.exec(value);
  if (span) return now - Number(span[1]) * (UNIT_MS[(span[2] as string).toLowerCase()] as number);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = Date.parse(`${value}T00:00:00Z`);
    if (!Number.isFinite(day)) return `${key}:${value} is not a date`;
    // A day given to until: includes that whole day.
    return key === 'until' ? day + DAY_MS : day;
  }
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?$/.test(value)) {
    const t = Date.parse(value);
    if (Number.isFinite(t)) return t;
  }
  return `${key}: takes a date (2026-11-30), an ISO time (2026-11-30T12:00:00Z) or a span back from now (24h, 7d, 2w); got '${value}'`;
}

/** One word or phrase as an FTS5 string; a message when it cannot be searched for. */
function termOf(t: Token): string | { error: string } {
  if (t.kind === 'phrase') {
    if (!hasToken(t.text)) return { error: `the phrase "${t.text}" has no letters or digits to search for` };
    return ftsString(t.text);
  }
  const prefix = t.text.endsWith('*');
  const body = prefix ? t.text.slice(0, -1) : t.text;
  if (body.includes('*')) return { error: `'${t.text}': * may only end a word (prefix*)` };
  if (!hasToken(body)) return { error: `'${t.text}' has no letters or digits to search for` };
  // A prefix must be one token: `billing.t*` would be a phrase whose last word is a prefix, fine in FTS5.
  return prefix ? `${ftsString(body)}*` : ftsString(body);
}

function applyFilter(q: CompiledQuery, key: FilterKey, value: string, now: number): string | null {
  if (value === '') return `${key}: needs a value (${key}:<value>)`;
  switch (key) {
    case 'harness': {
      const h = value.toLowerCase();
      if (!(HARNESSES as readonly string[]).includes(h)) return `harness:${value} is not a harness; one of ${HARNESSES.join(', ')}`;
      q.harnesses.push(h as Harness);
      return null;
    }
    case 'role': {
      const r = value.toLowerCase();
      if (!(MESSAGE_ROLES as readonly string[]).includes(r)) return `role:${value} is not a role; one of ${MESSAGE_ROLES.join(', ')}`;
      q.roles.push(r as MessageRole);
      return null;
    }
    case 'repo':
      q.repos.push(value);
      return null;
    case 'branch':
      q.branches.push(value);
      return null;
    case 'since':
    case 'until': {
      const t = dateOf(key, value, now);
      if (typeof t === 'string') return t;
      if (key === 'since') q.sinceMs = Math.max(q.sinceMs ?? t, t);
      else q.untilMs = Math.min(q.untilMs ?? t, t);
      return null;
    }
  }
}

export function parseSearchQuery(input: string, now: number = Date.now()): ParseResult {
  if (input.length > MAX_QUERY_CHARS) return fail(`the query is ${input.length} characters long; at most ${MAX_QUERY_CHARS}`);
  const tokens = tokenize(input);
  if (typeof tokens === 'string') return fail(tokens);
  const q: CompiledQuery = { match: '', harnesses: [], roles: [], sinceMs: null, untilMs: null, repos: [], branches: [] };
  const terms: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'filter') {
      const err = applyFilter(q, t.key as FilterKey, t.text, now);
      if (err) return fail(err);
      continue;
    }
    const term = termOf(t);
    if (typeof term !== 'string') return fail(term.error);
    terms.push(term);
  }
  if (terms.length === 0) return fail('the query has no words to search for: add a word, a "phrase" or a prefix*');
  if (terms.length > MAX_TERMS) return fail(`the query has ${terms.length} words and phrases; at most ${MAX_TERMS}`);
  if (q.sinceMs !== null && q.untilMs !== null && q.sinceMs >= q.untilMs) return fail('since: is not before until:');
  q.match = terms.join(' ');
  return { ok: true, query: q };
}
