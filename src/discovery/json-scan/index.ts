/** A JSONL reader whose line loop and JSON validation run in WebAssembly (the cold index's first pass). */
export { createLineScanner, lazyLineScanner } from './line-scanner.ts';
export type { LineFolds, LineScanner, ScanVisitor, ScannerConfig } from './line-scanner.ts';
export { KIND } from './layout.ts';
export { putRecent, takeFolded, takeRecent } from './claude-summary.ts';
export type { Folded, RecentMessage } from './claude-summary.ts';
export type { FoldedSummary } from './line-scanner.ts';
