// The tracked values of the line scanned last (OUT, written by json.ts): each node's kind, where its value
// lies in the chunk, and a string's flags.
import { F_ESCAPE, INPUT, K_STRING, OUT } from './layout';

@inline export function kind(node: i32): i32 { return load<i32>(OUT + (<usize>node << 4)); }
@inline export function from(node: i32): usize { return INPUT + <usize>load<i32>(OUT + (<usize>node << 4) + 4); }
@inline export function to(node: i32): usize { return INPUT + <usize>load<i32>(OUT + (<usize>node << 4) + 8); }
@inline export function flags(node: i32): i32 { return load<i32>(OUT + (<usize>node << 4) + 12); }
/** A string's bytes (inside its quotes). */
@inline export function textAt(node: i32): usize { return from(node) + 1; }
@inline export function textLen(node: i32): i32 { return <i32>(to(node) - from(node)) - 2; }
/** A string written without escapes. */
@inline export function plain(node: i32): bool { return kind(node) == K_STRING && (flags(node) & F_ESCAPE) == 0; }
