// The memory this module shares with its host (byte offsets; ../layout.ts says the same in TypeScript,
// and a unit test holds the two together). The host writes the tables, the module writes OUT and SPANS.
export const NODE_COUNT: usize = 1024; // i32: tracked nodes (node 0: the line's object)
export const TABLE: usize = 1028; // per node, 16 bytes: parent, key offset, key length, last node of its subtree
export const KEY_HASH: usize = 2304; // per bucket (keyHash in json.ts), u8: the first node with such a key (0: none)
export const KEY_BUCKETS: usize = 256;
export const KEY_NEXT: usize = 2560; // per node, u8: the next node in its bucket (0: none)
export const TYPES: usize = 6144; // i32 count, then per type 8 bytes: offset, length of its name
export const OUT: usize = 8192; // per node, 16 bytes: kind, start, end (relative to INPUT), string flags
export const STACK: usize = 16384; // per depth, 16 bytes: node, is array, start
export const SPANS: usize = 32768; // a line's spans the host reads (relative to INPUT), 4 × i32
export const TOTAL: usize = 32784; // a Codex token line's running total, as the host reads it: 4 × f64, then i32 1 when read
export const MAXTS: usize = 36864; // the latest time of the lines passed over: i32 length (-1: none), then its bytes
export const HELD: usize = 38912; // Codex's tool calls held (codex-calls.ts), 64 × 4 × i32: line start, end, id start, end (relative to INPUT)
export const NEEDLE: usize = 45056; // the bytes `holds` looks for (the host writes them), up to 256
// From 49152: the module's own constants (scripts/build-wasm.mjs's memoryBase).
export const INPUT: usize = 65536; // the chunk
export const CHUNK_END: usize = 1114112; // the chunk's end, its padding included (INPUT + 1 MiB)
export const SUMMARY: usize = 1114112; // the Claude summary the module folds (claude-summary.ts), up to 1179648
export const MAX_DEPTH: i32 = 1000;

// value kinds (OUT's first field; 0: the key was not in the line)
export const K_STRING: i32 = 1;
export const K_NUMBER: i32 = 2;
export const K_TRUE: i32 = 3;
export const K_FALSE: i32 = 4;
export const K_NULL: i32 = 5;
export const K_OBJECT: i32 = 6;
export const K_ARRAY: i32 = 7;
// string flags
export const F_ESCAPE: i32 = 1;
export const F_NONASCII: i32 = 2;

// The Claude summary (SUMMARY + …; ../layout.ts says the same): what the module folded since the host last took it
export const S_DIRTY: usize = 0; // i32: which of the strings and times below were seen (D_…)
export const S_RECORDS: usize = 4; // i32: records folded
export const S_UNKEYED: usize = 8; // i32: API messages without an id
export const S_MODELS_N: usize = 12; // i32: models in S_MODELS
export const S_TOKENS: usize = 16; // 4 × f64: input, output, cache read, cache write
export const S_RECENT_HEAD: usize = 48; // i32: the slot of the oldest recent message
export const S_RECENT_N: usize = 52; // i32: recent messages held
export const S_RECENT_OFF: usize = 56; // i32: 1 when the host holds the recent messages (assistant records go back)
export const S_SESSION: usize = 64; // each string: i32 length, then its bytes (S_CAP at most; cwd CWD_CAP)
export const S_BRANCH: usize = 320;
export const S_MODEL: usize = 576;
export const S_COPIED: usize = 832;
export const S_ROOT: usize = 1088;
export const S_FIRST_AT: usize = 1600; // times: 24 bytes each
export const S_LAST_AT: usize = 1632;
export const S_ASSISTANT_AT: usize = 1664;
export const S_UNKNOWN: usize = 1696; // scratch: the bytes of 'unknown'
export const S_CWD: usize = 2048;
export const S_MODELS: usize = 6144; // per model, M_SIZE bytes: i32 length, i32 counted since the cost was reset, counts (4 × f64) at +16, counts since the reset at +48, name at +80
export const S_RECENT: usize = 9728; // per recent message, R_SIZE bytes: i32 id length, i32 model length, counts at +16, id at +48, model at +176
export const S_PROMPT: usize = 29696; // the latest prompt record's text: i32 length, then up to PROMPT_CAP bytes
export const S_COSTS: usize = 46080; // i32: cost records folded, then per record C_SIZE bytes: i32 total's length, i32 start time's (-1: none), their texts at +8 and +8 + COST_TEXT
export const S_CAP: i32 = 252;
export const CWD_CAP: i32 = 4092;
export const NAME_CAP: i32 = 128; // a model's name, a message id
export const MAX_MODELS: i32 = 16;
export const M_SIZE: usize = 208;
export const RECENT_MAX: i32 = 64; // transcript-usage.ts's RECENT_IDS
export const R_SIZE: usize = 304;
export const PROMPT_CAP: i32 = 16380;
export const COST_MAX: i32 = 32;
export const COST_TEXT: usize = 32;
export const C_SIZE: usize = 72;
// S_DIRTY's bits
export const D_SESSION: i32 = 1;
export const D_CWD: i32 = 2;
export const D_BRANCH: i32 = 4;
export const D_MODEL: i32 = 8;
export const D_COPIED: i32 = 16;
export const D_ROOT: i32 = 32;
export const D_FIRST_AT: i32 = 64;
export const D_LAST_AT: i32 = 128;
export const D_ASSISTANT_AT: i32 = 256;
export const D_RECENT: i32 = 512;
export const D_PROMPT: i32 = 1024;
