/**
 * Starting a worker from its entry file (the cold index's, and the store's search thread with its
 * `workerData`). The daemon runs from its bundle, where the entry is a built `.js` file beside it; the
 * tests run the sources through tsx, whose loader a worker thread does not inherit, so a `.ts` entry is
 * loaded by a one-line bootstrap that imports it through tsx's API.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

export function spawnIndexWorker(entry: string, workerData?: unknown): Worker {
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData });
  const api = import.meta.resolve('tsx/esm/api');
  const href = pathToFileURL(entry).href;
  return new Worker(`import(${JSON.stringify(api)}).then((a) => a.tsImport(${JSON.stringify(href)}, ${JSON.stringify(import.meta.url)}))`, { eval: true, workerData });
}
