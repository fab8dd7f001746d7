/** Page ids: `pag_…`, time-sortable and unguessable (src/ids). */
import { newPrefixedId, prefixedIdPattern } from '../ids/index.ts';

const PAGE_ID = prefixedIdPattern('pag');

export function newPageId(nowMs: number): string {
  return newPrefixedId('pag', nowMs);
}

/** True for a well-formed page id (anchored; refuses anything else before it reaches the store). */
export function isPageId(id: unknown): id is string {
  return typeof id === 'string' && PAGE_ID.test(id);
}
