/**
 * The memory the line scanner's WebAssembly module shares with its host, as assembly/layout.ts lays it
 * out (byte offsets; the two must change together). The module's memory is 18 pages (a chunk of 1 MiB, then Claude's summary)
 * and never grows, so views made once stay valid.
 */
/** i32: how many nodes are tracked (node 0 is the line's object). */
export const NODE_COUNT = 1024;
/** Per node, 4 × i32: parent node, key offset, key length, the last node of its subtree. */
export const TABLE = 1028;
/**
 * The tracked keys by hash (keyHash: their parent, length, first and last byte): per bucket, the first
 * node (u8; 0: none), and per node the next one in its bucket. The module looks a key up here, not
 * through every node.
 */
export const KEY_HASH = 2304;
export const KEY_BUCKETS = 256;
export const KEY_NEXT = 2560;
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
/** A Codex token line's running total as tokensFromUsage reads it (input, cached input, output, cache write: 4 × f64), then i32 1 when the module read it. */
export const TOTAL = 32784;
/** The latest time of the Codex lines passed over: i32 length (-1: none), then its bytes. */
export const MAXTS = 36864;
/** Codex's tool calls the module holds (assembly/codex-calls.ts): 64 × 4 × i32. */
export const HELD = 38912;
/** The bytes `holds` looks for, written by the host before it asks (at most NEEDLE_MAX). */
export const NEEDLE = 45056;
export const NEEDLE_MAX = 256;
/** Where the module keeps its own constants (scripts/build-wasm.mjs's memoryBase), up to INPUT. */
export const MODULE_DATA = 49152;
/** The chunk: a file's bytes are read straight into the module's memory from here. */
export const INPUT = 65536;
/** The chunk's end, its padding included (INPUT + 1 MiB). */
export const CHUNK_END = 1114112;
/** The Claude summary the module folds (assembly/claude-summary.ts), up to the memory's end (18 pages). */
export const SUMMARY = 1114112;
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

// The Claude summary (SUMMARY + …; ../layout.ts says the same): what the module folded since the host last took it
/** i32: which of the strings and times below were seen (D_…) */
export const S_DIRTY = 0;
/** i32: records folded */
export const S_RECORDS = 4;
/** i32: API messages without an id */
export const S_UNKEYED = 8;
/** i32: models in S_MODELS */
export const S_MODELS_N = 12;
/** 4 × f64: input, output, cache read, cache write */
export const S_TOKENS = 16;
/** i32: the slot of the oldest recent message */
export const S_RECENT_HEAD = 48;
/** i32: recent messages held */
export const S_RECENT_N = 52;
/** i32: 1 when the host holds the recent messages (assistant records go back) */
export const S_RECENT_OFF = 56;
/** each string: i32 length, then its bytes (S_CAP at most; cwd CWD_CAP) */
export const S_SESSION = 64;
export const S_BRANCH = 320;
export const S_MODEL = 576;
export const S_COPIED = 832;
export const S_ROOT = 1088;
/** times: 24 bytes each */
export const S_FIRST_AT = 1600;
export const S_LAST_AT = 1632;
export const S_ASSISTANT_AT = 1664;
/** scratch: the bytes of 'unknown' */
export const S_UNKNOWN = 1696;
export const S_CWD = 2048;
/** per model, M_SIZE bytes: i32 length, i32 counted since the cost was reset, counts (4 × f64) at +16, counts since the reset at +48, name at +80 */
export const S_MODELS = 6144;
/** per recent message, R_SIZE bytes: i32 id length, i32 model length, counts at +16, id at +48, model at +176 */
export const S_RECENT = 9728;
/** the latest prompt record's text: i32 length, then up to PROMPT_CAP bytes */
export const S_PROMPT = 29696;
/** i32: cost records folded, then per record C_SIZE bytes: i32 total's length, i32 start time's (-1: none), their texts at +8 and +8 + COST_TEXT */
export const S_COSTS = 46080;
export const S_CAP = 252;
export const CWD_CAP = 4092;
/** a model's name, a message id */
export const NAME_CAP = 128;
export const MAX_MODELS = 16;
export const M_SIZE = 208;
/** transcript-usage.ts's RECENT_IDS */
export const RECENT_MAX = 64;
export const R_SIZE = 304;
export const PROMPT_CAP = 16380;
export const COST_MAX = 32;
export const COST_TEXT = 32;
export const C_SIZE = 72;
// S_DIRTY's bits
export const D_SESSION = 1;
export const D_CWD = 2;
export const D_BRANCH = 4;
export const D_MODEL = 8;
export const D_COPIED = 16;
export const D_ROOT = 32;
export const D_FIRST_AT = 64;
export const D_LAST_AT = 128;
export const D_ASSISTANT_AT = 256;
export const D_RECENT = 512;
export const D_PROMPT = 1024;
