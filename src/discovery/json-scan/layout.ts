/**
 * The memory the line scanner's WebAssembly module shares with its host, as assembly/layout.ts lays it
 * out (byte offsets; the two must change together). The module's memory is 17 pages (a chunk of 1 MiB)
 * and never grows, so views made once stay valid.
 */
/** i32: how many nodes are tracked (node 0 is the line's object). */
export const NODE_COUNT = 1024;
/** Per node, 4 × i32: parent node, key offset, key length, the last node of its subtree. */
export const TABLE = 1028;
/** Where the tracked keys' bytes are kept. */
export const KEYS = 4096;
export const KEYS_END = 6144;
/** i32 count, then per fast type 2 × i32: offset and length of its name (kept after the keys). */
export const TYPES = 6144;
/** Per node, 4 × i32: kind, start and end (relative to INPUT), string flags. */
export const OUT = 8192;
/** Most nodes the tables hold. */
export const MAX_NODES = 64;
/** A line's spans the host reads (Codex's token lines and tool outputs), 4 × i32 relative to INPUT. */
export const SPANS = 32768;
/** The latest time of the Codex lines passed over: i32 length (-1: none), then its bytes. */
export const MAXTS = 36864;
/** The bytes `holds` looks for, written by the host before it asks (at most NEEDLE_MAX). */
export const NEEDLE = 45056;
export const NEEDLE_MAX = 256;
/** Where the module keeps its own constants (scripts/build-wasm.mjs's memoryBase), up to INPUT. */
export const MODULE_DATA = 49152;
/** The chunk: a file's bytes are read straight into the module's memory from here. */
export const INPUT = 65536;
/** Bytes past a chunk that the 16-byte loads may touch. */
export const PAD = 64;

/** What the module's `next()` answers. */
export const NEED_MORE = 0;
export const CLEAN = 1;
export const OTHER = 2;
export const OVERSIZE = 3;
export const TOKEN = 4;
export const CLOSED = 5;

/** Value kinds (OUT's first field; 0: the key was not in the line). */
export const KIND = { string: 1, number: 2, true: 3, false: 4, null: 5, object: 6, array: 7 } as const;
/** String flags: an escape in it; a byte over 0x7f in it. */
export const F_ESCAPE = 1;
export const F_NONASCII = 2;
