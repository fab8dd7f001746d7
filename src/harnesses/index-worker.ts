/** Entry of a cold-index worker thread (built as its own file, dist/index-worker.js). */
import { runIndexWorker } from '../discovery/index-pool/index.ts';
import { INDEX_FOLDS } from './index-folds.ts';

runIndexWorker(INDEX_FOLDS);
