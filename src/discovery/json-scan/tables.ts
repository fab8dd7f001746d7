/** What a line scanner tracks, and how its tables are written into the module's memory (layout.ts). */
import { KEY_BUCKETS, KEY_HASH, KEY_NEXT, KEYS, KEYS_END, MAX_NODES, NODE_COUNT, TABLE, TYPES } from './layout.ts';

export interface ScannerConfig {
  /**
   * The tracked keys, each as its path from the line's object, parents before their children and each
   * node's descendants right after it (so a path's node is its index + 1). The first path names the
   * record type.
   */
  paths: readonly (readonly string[])[];
  /** The record types (values of the first path) whose clean lines come back as `clean`. */
  fastTypes: readonly string[];
  /**
   * The heads the loop passes over (`ignored` counts them): Claude Code's records Muster never shows
   * (transcript-lines.ts); Codex's (rollout-lines.ts), whose token lines and tool outputs also come back
   * as `token` and `closed`.
   */
  heads: 'none' | 'claude' | 'codex';
}

/** Each path's parent node (0: the line's object; -1: its parent path is missing). */
function parentsOf(paths: readonly (readonly string[])[]): number[] {
  return paths.map((p) => (p.length === 1 ? 0 : paths.findIndex((q) => q.length === p.length - 1 && q.every((k, j) => k === p[j])) + 1));
}

/** Each node's tracked children, as [node, key] (node i + 1 is path i). */
export function childrenOf(paths: readonly (readonly string[])[]): [number, string][][] {
  const out: [number, string][][] = paths.map(() => []);
  out.push([]);
  parentsOf(paths).forEach((parent, i) => out[parent]?.push([i + 1, paths[i]?.at(-1) as string]));
  return out;
}

/** The bucket of a tracked key under `parent`: assembly/json.ts's keyHash, over the key's UTF-8 bytes. */
export function keyHash(parent: number, key: Buffer): number {
  const len = key.length;
  const first = len > 0 ? (key[0] as number) : 0;
  const last = len > 0 ? (key[len - 1] as number) : 0;
  return (parent * 37 + len * 11 + first * 7 + last) & (KEY_BUCKETS - 1);
}

/** Writes the tracked-key tree, its hash of keys and the fast types into the module's tables. */
export function writeTables(mem: Buffer, i32: Int32Array, config: ScannerConfig): void {
  const nodes = config.paths.length + 1;
  if (nodes > MAX_NODES) throw new Error(`line scanner: at most ${MAX_NODES - 1} tracked paths`);
  const parents = parentsOf(config.paths);
  parents.forEach((parent, i) => {
    // Preorder: a node's parent comes before it, and nothing between them lies outside the parent.
    if (parent < 0 || parent > i) throw new Error(`line scanner: the parent of ${config.paths[i]?.join('.')} must come before it`);
  });
  const last = Array.from({ length: nodes }, (_, n) => n);
  for (let n = nodes - 1; n >= 1; n--) {
    const parent = parents[n - 1] as number;
    last[parent] = Math.max(last[parent] as number, last[n] as number);
  }
  let at = KEYS;
  const put = (text: string): [number, number] => {
    const b = Buffer.from(text);
    if (at + b.length > KEYS_END) throw new Error('line scanner: the keys and types do not fit their table');
    b.copy(mem, at);
    at += b.length;
    return [at - b.length, b.length];
  };
  i32[NODE_COUNT >> 2] = nodes;
  const row = (n: number, parent: number, key: [number, number]): void => {
    i32.set([parent, key[0], key[1], last[n] as number], (TABLE >> 2) + n * 4);
  };
  row(0, -1, [0, 0]);
  config.paths.forEach((p, i) => row(i + 1, parents[i] as number, put(p[p.length - 1] as string)));
  // Each bucket's nodes in their order, so a lookup finds the first node with a key, as a scan would.
  mem.fill(0, KEY_HASH, KEY_HASH + KEY_BUCKETS);
  mem.fill(0, KEY_NEXT, KEY_NEXT + MAX_NODES);
  config.paths.forEach((p, i) => {
    const h = KEY_HASH + keyHash(parents[i] as number, Buffer.from(p[p.length - 1] as string));
    let at = h;
    while (mem[at] !== 0) at = KEY_NEXT + (mem[at] as number);
    mem[at] = i + 1;
  });
  i32[TYPES >> 2] = config.fastTypes.length;
  config.fastTypes.forEach((t, i) => i32.set(put(t), (TYPES >> 2) + 1 + i * 2));
  // A subtree must be contiguous for the module to clear it: check that every node up to `last` descends from it.
  for (let n = 1; n < nodes; n++) {
    for (let d = n + 1; d <= (last[n] as number); d++) {
      let up = parents[d - 1] as number;
      while (up > n) up = parents[up - 1] as number;
      if (up !== n) throw new Error(`line scanner: ${config.paths[d - 1]?.join('.')} lies inside ${config.paths[n - 1]?.join('.')}'s subtree`);
    }
  }
}
