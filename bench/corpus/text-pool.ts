/**
 * Deterministic filler text for generated corpora. Generating a gigabyte of fresh random text would
 * dominate the benchmark's set-up time, so a pool of a few MiB of code-like text (words drawn by
 * Zipf's law, newlines, quotes, tabs, backslashes, some non-ASCII) is built once and sliced at seeded
 * offsets: JSON.stringify then produces the escapes that make real transcripts costly to parse.
 */

/** mulberry32: small, fast, seeded; good enough to vary sizes and offsets. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'const', 'return', 'function', 'import', 'export', 'await', 'async', 'if', 'else', 'for', 'of', 'new', 'this', 'null', 'true',
  'session', 'transcript', 'offset', 'buffer', 'index', 'summary', 'record', 'parser', 'daemon', 'status', 'error', 'value',
  'the', 'a', 'to', 'and', 'is', 'in', 'that', 'with', 'file', 'line', 'test', 'src/hub/hub.ts', 'node_modules',
];
/** Rare non-ASCII (about one per 10 KB, as in prompts and tool output): it makes V8 build two-byte strings. */
const RARE = ['—', '…', 'résumé', '→', '🤖'];
/** What follows a word: mostly a space, else code punctuation (quotes, backslashes, tabs, newlines: JSON escapes). */
const PUNCT = ['(', ')', '{', '}', ';', '.', ',', ': ', ' = ', '"', "'", '\\', '\t', '\n', '\n  ', '/', '<', '>'];
const SPACE_SHARE = 0.6;
/** Distinct words the text draws from: the common ones above, then made-up identifiers. */
const VOCABULARY = 40_000;
const SYLLABLES = ['ba', 'co', 'de', 'fi', 'gu', 'ha', 'ke', 'li', 'mo', 'nu', 'pa', 're', 'si', 'to', 'va', 'we', 'xi', 'yo', 'za', 'st', 'tr', 'on', 'er', 'an'];

/**
 * The words, most frequent first: the common ones, then identifiers of 1-4 syllables, one in eight two
 * of them joined camelCase. Drawn by Zipf's law (rank r has weight 1/r), this gives text whose
 * vocabulary grows as real code's and prose's do — measured with unicode61-like splitting over 173,000
 * tokens: this repository's TypeScript has 3.4 % distinct tokens of mean length 5.0, the design notes
 * in ../shared 10 %; this pool 7.3 % of mean length 5.4. A full-text index's cost depends on it (each
 * new term is a new entry in the index). The first pool glued about three words into every token (37 %
 * distinct, mean length 12.2), which no real text does. Both escape alike: JSON.stringify grows either
 * by 1.7-1.8 %.
 */
function vocabulary(rng: () => number): string[] {
  const words = [...WORDS];
  const word = (): string => Array.from({ length: 1 + Math.floor(rng() * 4) }, () => SYLLABLES[Math.floor(rng() * SYLLABLES.length)]).join('');
  while (words.length < VOCABULARY) {
    const w = word();
    words.push(rng() < 0.125 ? w + word().replace(/^./, (c) => c.toUpperCase()) : w);
  }
  return words;
}

/** Cumulative Zipf weights (1/rank) of `n` ranks, for drawing ranks by binary search. */
function zipf(n: number): Float64Array {
  const cum = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cum[r] = total += 1 / (r + 1);
  return cum;
}

function draw(cum: Float64Array, u: number): number {
  const x = u * (cum[cum.length - 1] as number);
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cum[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface TextPool {
  /** A slice of `length` characters (length <= pool size), starting at a seeded offset. */
  take(length: number): string;
  /** A lowercase hex string of `length` characters (hashes, encrypted blobs, ids). */
  hex(length: number): string;
  readonly rng: () => number;
}

export function createTextPool(seed = 1, poolChars = 4 * 1024 * 1024): TextPool {
  const rng = createRng(seed);
  const words = vocabulary(rng);
  const cum = zipf(words.length);
  const parts: string[] = [];
  let size = 0;
  while (size < poolChars) {
    const w = rng() < 0.0005 ? (RARE[Math.floor(rng() * RARE.length)] as string) : (words[draw(cum, rng())] as string);
    const sep = rng() < SPACE_SHARE ? ' ' : (PUNCT[Math.floor(rng() * PUNCT.length)] as string);
    parts.push(w, sep);
    size += w.length + sep.length;
  }
  const text = parts.join('');
  let hexPool = '';
  while (hexPool.length < 1024 * 1024) hexPool += Math.floor(rng() * 0xffffffff).toString(16).padStart(8, '0');
  const slice = (src: string, length: number): string => {
    if (length <= 0) return '';
    let out = '';
    while (out.length < length) {
      const n = Math.min(length - out.length, src.length);
      const at = Math.floor(rng() * (src.length - n + 1));
      out += src.slice(at, at + n);
    }
    return out;
  };
  return { take: (n) => slice(text, n), hex: (n) => slice(hexPool, n), rng };
}

/** A UUID v4 shape (what Claude uses for session ids) from the pool's rng. */
export function uuidV4(rng: () => number): string {
  const h = (n: number): string => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('');
  return `${h(8)}-${h(4)}-4${h(3)}-${'89ab'[Math.floor(rng() * 4)]}${h(3)}-${h(12)}`;
}

/** A UUID v7 shape (Codex thread ids): the first 48 bits are the creation time in ms. */
export function uuidV7(ms: number, rng: () => number): string {
  const t = Math.floor(ms).toString(16).padStart(12, '0');
  const h = (n: number): string => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('');
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h(3)}-${'89ab'[Math.floor(rng() * 4)]}${h(3)}-${h(12)}`;
}

/** A size drawn around `mean` with a long tail (most records small, a few very large), >= min. */
export function skewedSize(rng: () => number, mean: number, min = 16): number {
  // Exponential distribution: mean `mean`, cheap, and heavy enough in the tail for tool outputs.
  return Math.max(min, Math.round(-Math.log(1 - rng()) * mean));
}
