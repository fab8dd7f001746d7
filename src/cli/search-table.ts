/**
 * `muster search` and `muster show --messages` on a terminal: sessions with their hits (matches in
 * bold), and a conversation as role-labelled paragraphs. Untrusted text is stripped of control
 * characters before any escape of ours is added.
 */
import type { SearchResult } from '../search/types.ts';
import type { PositionedMessage } from '../core/transcript-message.ts';

const BOLD = '\u001b[1m';
const PLAIN = '\u001b[22m';

function clean(s: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex -- removing terminal control characters is the point
  return (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

function when(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '-'.padEnd(16);
}

function marked(snippet: string, marks: Array<[number, number]>, color: boolean): string {
  if (!color) return clean(snippet);
  let out = '';
  let at = 0;
  for (const [s, e] of marks) {
    out += clean(snippet.slice(at, s)) + BOLD + clean(snippet.slice(s, e)) + PLAIN;
    at = e;
  }
  return out + clean(snippet.slice(at));
}

export function renderSearchTable(results: SearchResult[], options: { color: boolean }): string {
  if (results.length === 0) return 'No matches.';
  const out: string[] = [];
  for (const { session: s, hits } of results) {
    const repo = `${clean((s.repoRoot ?? s.cwd ?? '-').split('/').pop())}${s.branch ? `@${clean(s.branch)}` : ''}`;
    out.push(`${s.harness} ${s.id}  ${clean(s.title ?? '')}  ${repo}${s.live ? '  (live)' : ''}`);
    for (const h of hits) out.push(`  #${String(h.position).padEnd(5)} ${when(h.at)}  ${h.role.padEnd(11)} ${marked(h.snippet, h.marks, options.color)}`);
    out.push('');
  }
  out.push('Read one: muster show <id> --messages --from <#>');
  return out.join('\n');
}

export function renderMessages(messages: PositionedMessage[], next: number | null): string {
  const out: string[] = [];
  for (const m of messages) {
    out.push(`#${m.position} ${m.role} ${when(m.at)}`);
    // Keep newlines (a conversation reads in paragraphs), drop every other control character.
    // eslint-disable-next-line no-control-regex -- removing terminal control characters is the point
    out.push(m.text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ').replace(/^/gm, '  '), '');
  }
  if (messages.length === 0) out.push('No messages here.');
  if (next !== null) out.push(`More: --from ${next}`);
  return out.join('\n');
}
