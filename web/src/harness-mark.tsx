import { harnessMark } from './harnesses.ts';

/** A harness's short mark in its own colour (from the daemon's harness list). */
export function HarnessMark({ harness }: { harness: string }) {
  const m = harnessMark(harness);
  return <span className={`mark h-${harness}`} style={m.color ? { background: m.color } : undefined}>{m.text}</span>;
}
