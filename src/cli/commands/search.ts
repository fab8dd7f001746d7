/**
 * `muster search "<query>" [--harness H] [--limit N] [--json]`: full-text search over every harness's
 * transcripts. A table on a terminal; with --json or when piped, the envelope GET /api/search answers:
 * `{ ok, results: [{ session, hits: [{ role, at, snippet, marks, position }] }] }`. A query that cannot
 * be read is a usage error (exit 2), checked here before the daemon is asked.
 */
import { callApi, callApiInto, clientContext } from '../daemon-client.ts';
import type { CommandContext } from '../command.ts';
import { usageError } from '../output.ts';
import { parseSearchQuery } from '../../search/query-parser.ts';
import { renderSearchTable } from '../search-table.ts';
import type { SearchResult } from '../../search/types.ts';

export async function run({ args, flags, env, tty }: CommandContext): Promise<number> {
  const q = args.join(' ').trim();
  if (q === '') throw usageError('muster search "<query>" needs a query');
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw usageError(`cannot read the query: ${parsed.message}`);
  const params = new URLSearchParams({ q });
  if (typeof flags.harness === 'string') params.set('harness', flags.harness);
  if (typeof flags.limit === 'string') {
    if (!/^\d+$/.test(flags.limit)) throw usageError(`--limit takes a number (got '${flags.limit}')`);
    params.set('limit', flags.limit);
  }
  const path = `/search?${params}`;
  if (tty && !flags.json) {
    const body = await callApi(clientContext(env), 'GET', path);
    process.stdout.write(`${renderSearchTable(body.results as SearchResult[], { color: !env.NO_COLOR })}\n`);
    return 0;
  }
  await callApiInto(clientContext(env), 'GET', path, process.stdout);
  await new Promise<void>((resolve, reject) => process.stdout.write('\n', (e) => (e ? reject(e) : resolve())));
  return 0;
}
