// The memory this module shares with its host (byte offsets; ../layout.ts says the same in TypeScript,
// and a unit test holds the two together). The host writes the tables, the module writes OUT and SPANS.
export const NODE_COUNT: usize = 1024; // i32: tracked nodes (node 0: the line's object)
export const TABLE: usize = 1028; // per node, 16 bytes: parent, key offset, key length, last node of its subtree
export const TYPES: usize = 6144; // i32 count, then per type 8 bytes: offset, length of its name
export const OUT: usize = 8192; // per node, 16 bytes: kind, start, end (relative to INPUT), string flags
export const STACK: usize = 16384; // per depth, 16 bytes: node, is array, start
export const SPANS: usize = 32768; // a line's spans the host reads (relative to INPUT), 4 × i32
export const MAXTS: usize = 36864; // the latest time of the lines passed over: i32 length (-1: none), then its bytes
export const NEEDLE: usize = 45056; // the bytes `holds` looks for (the host writes them), up to 256
// From 49152: the module's own constants (scripts/build-wasm.mjs's memoryBase).
export const INPUT: usize = 65536; // the chunk
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
