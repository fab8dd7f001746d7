/**
 * A JSONL reader whose line loop runs in WebAssembly (assembly/scan.ts): a file's bytes are read straight
 * into the module's memory, and the module splits the lines, passes over blank lines and the heads of a
 * harness's records Muster never shows (Claude's, Codex's), and validates every other line as JSON in one
 * pass that also notes where a few tracked keys' values lie. A line that is one clean JSON object of a
 * wanted record type reaches the host as `clean`, with those values readable without JSON.parse; Codex's
 * token lines and tool outputs come back with what their heads say; every other line reaches it as
 * `line`, exactly as readLinesFrom hands it. The module is compiled once per thread and is small, so a
 * worker starts using it at once instead of compiling a parser of its own.
 */
import { closeSync, readSync } from 'node:fs';
import { latin1Text, readLinesFrom, utf8Text } from '../jsonl/index.ts';
import { openRegularFile } from '../regular-file/index.ts';
import { CHUNK_END, CLEAN, CLOSED, F_ESCAPE, F_NONASCII, INPUT, KIND, NEED_MORE, NEEDLE, NEEDLE_MAX, MAXTS, OTHER, OUT, PAD, SPANS, TOKEN, TOTAL } from './layout.ts';
import { childrenOf, writeTables } from './tables.ts';
import type { ScannerConfig } from './tables.ts';
import { SCAN_WASM_BASE64 } from './scan-wasm.ts';

export type { ScannerConfig } from './tables.ts';

export interface ScanVisitor {
  /** A clean line of `fastTypes[type]`: its values are readable through the scanner during the call. */
  clean(type: number, line: Buffer): void;
  /** Any other line, without its '\n' (nor a CRLF's '\r'). */
  line(bytes: Buffer): void;
  /** A line longer than maxLineBytes: its first headBytes bytes. */
  oversize(head: Buffer): void;
  /**
   * Codex: a token line in the layout Codex writes (token-lines.ts), with its running total's object at
   * [totalFrom, totalTo) of the line and its head's time at [tsFrom, tsTo) (-1 when it has none).
   */
  token?(line: Buffer, totalFrom: number, totalTo: number, tsFrom: number, tsTo: number): void;
  /** Codex: a tool output passed over by its head, closing the call whose id is [from, to) of the line. */
  closed?(line: Buffer, from: number, to: number): void;
}

/** What a read reached: the offset after its last complete line, the lines passed over, and (Codex) their latest time. */
export interface ScanResult {
  offset: number;
  ignored: number;
  /** The latest of the times in the heads of the Codex lines passed over (as the summary compares them), or null. */
  latest: string | null;
  /**
   * Codex: the tool calls the module paired with their outputs, or that a turn event cancelled, while the
   * host's pending calls were empty (assembly/codex-calls.ts): each a record only counted (its time is in
   * `latest`); their outputs are in `ignored`.
   */
  paired: number;
}

export interface LineScanner {
  /** readLinesFrom's contract (complete lines from `offset`; the offset reached), plus the heads passed over. */
  readFile(path: string, offset: number, maxLineBytes: number, headBytes: number, visitor: ScanVisitor): ScanResult;
  /**
   * What the heads depend on that the host knows (bit 0: Codex's first prompt is read; bit 1: its pending
   * tool calls are empty, so the module may pair calls with their outputs); kept until changed.
   */
  setFlags(flags: number): void;
  /** The clean line's tracked values as JSON.parse gives them, in objects shaped as the tracked keys. */
  record(): Record<string, unknown>;
  /** The kind of the node's value in the clean line (KIND), 0 when its key was absent. */
  kind(node: number): number;
  /** A node's value as JSON.parse gives it; an object or array as an empty one (untracked inside). */
  value(node: number): unknown;
  /** True when the bytes of the node's value hold `what` (2 to 256 bytes; the module keeps the last one asked for). */
  holds(node: number, what: Buffer): boolean;
  /** True when the clean line spells a printable ASCII character as a \u escape (text it may hide). */
  asciiEscape(): boolean;
  /**
   * During `token`: the running total's counts as Codex's tokensFromUsage reads them from its parse
   * (input_tokens, cached_input_tokens, output_tokens, cache_write_input_tokens), or null when the host
   * must parse the object itself.
   */
  tokenTotal(): [number, number, number, number] | null;
  /** The summary the module folds Claude's records into (assembly/claude-summary.ts), in the thread's memory. */
  readonly summary: FoldedSummary;
}

/** The module's Claude summary: its memory (layout.ts, SUMMARY), and the calls that drive it. */
export interface FoldedSummary {
  mem: Buffer;
  i32: Int32Array;
  f64: Float64Array;
  /** Bit 0: fold the clean records it can (a Claude scanner's reads); bit 1: the first prompt is known. */
  set(flags: number): void;
  /** The host took what was folded: the deltas start again. */
  take(): void;
}

interface Exports {
  memory: WebAssembly.Memory;
  setChunk(len: number, max: number, mode: number): void;
  next(): number;
  consumed(): number;
  start(): number;
  end(): number;
  typeOf(): number;
  takeIgnored(): number;
  sawAsciiEscape(): number;
  holds(node: number, len: number): number;
  setFlags(flags: number): void;
  resetTime(): void;
  takePaired(): number;
  setSummary(flags: number): void;
  takeSummary(): void;
}

/** The module's one instance in this thread: its memory (a chunk of 1 MiB) is shared by every scanner of the thread. */
interface Engine {
  ex: Exports;
  mem: Buffer;
  i32: Int32Array;
  f64: Float64Array;
  /** The config whose tables the module holds. */
  tables: ScannerConfig | null;
  /** What the module's needle holds (`holds` writes it when asked for another). */
  needle: Buffer | null;
  /** A read is under way (reads do not nest: the folds are synchronous and read one file at a time). */
  busy: boolean;
}

let engine: Engine | null | undefined;

/** The module, compiled and instantiated once per thread; null where WebAssembly is unavailable (node --jitless). */
function theEngine(): Engine | null {
  if (engine === undefined) {
    try {
      if (typeof WebAssembly !== 'object') engine = null;
      else {
        const ex = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(SCAN_WASM_BASE64, 'base64')), {}).exports as unknown as Exports;
        engine = { ex, mem: Buffer.from(ex.memory.buffer), i32: new Int32Array(ex.memory.buffer), f64: new Float64Array(ex.memory.buffer), tables: null, needle: null, busy: false };
      }
    } catch {
      engine = null;
    }
  }
  return engine;
}

/**
 * What a harness's fast fold hands back to its line-by-line fold: a line the module did not settle, and
 * the head of a line over the limit (S the harness's summary, C its line counts).
 */
export interface LineFolds<S, C> {
  line(s: S, line: Buffer, counts: C): void;
  oversize(s: S, head: Buffer, counts: C): void;
}

/** The scanner for `config`, made at its first use in this thread (null where WebAssembly is unavailable). */
export function lazyLineScanner(config: ScannerConfig): () => LineScanner | null {
  let scanner: LineScanner | null | undefined;
  return () => (scanner === undefined ? (scanner = createLineScanner(config)) : scanner);
}

/** A scanner for `config`, or null where WebAssembly is unavailable (callers then read as before). */
export function createLineScanner(config: ScannerConfig): LineScanner | null {
  const found = theEngine();
  if (!found) return null;
  const en: Engine = found;
  const { ex, mem, i32 } = en;
  const capacity = CHUNK_END - INPUT - PAD;
  writeTables(mem, i32, config); // checks the config at once
  en.tables = config;
  const mode = config.heads === 'claude' ? 1 : config.heads === 'codex' ? 2 : 0;
  /** Each node's tracked children, as [node, key]. */
  const children = childrenOf(config.paths);

  const span = (node: number): [number, number] => [INPUT + (i32[(OUT >> 2) + node * 4 + 1] as number), INPUT + (i32[(OUT >> 2) + node * 4 + 2] as number)];
  const kind = (node: number): number => i32[(OUT >> 2) + node * 4] as number;

  function value(node: number): unknown {
    const [from, to] = span(node);
    switch (kind(node)) {
      case KIND.string: {
        const flags = i32[(OUT >> 2) + node * 4 + 3] as number;
        if (flags & F_ESCAPE) return JSON.parse(utf8Text(mem, from, to)) as string;
        return flags & F_NONASCII ? utf8Text(mem, from + 1, to - 1) : latin1Text(mem, from + 1, to - 1);
      }
      case KIND.number:
        return Number(latin1Text(mem, from, to));
      case KIND.true:
        return true;
      case KIND.false:
        return false;
      case KIND.null:
        return null;
      case KIND.object:
        return {};
      case KIND.array:
        return [];
      default:
        return undefined;
    }
  }

  /** The latest time the module kept, as a string (ASCII: it keeps no other), or null. */
  function latest(): string | null {
    const n = i32[MAXTS >> 2] as number;
    return n < 0 ? null : latin1Text(mem, MAXTS + 4, MAXTS + 4 + n);
  }

  function readFile(path: string, offset: number, maxLineBytes: number, headBytes: number, visitor: ScanVisitor): ScanResult {
    if (en.busy) throw new Error('line scanner: a read inside another read');
    const { fd, stats } = openRegularFile(path);
    en.busy = true;
    if (en.tables !== config) {
      writeTables(mem, i32, config);
      en.tables = config;
    }
    let reached = offset;
    let ignored = 0;
    ex.resetTime();
    try {
      const size = stats.size;
      let pos = offset;
      /** File offset of the chunk's first byte; the chunk's first `filled` bytes are an unfinished line. */
      let base = offset;
      let filled = 0;
      while (pos < size) {
        if (filled === capacity) {
          // A line longer than the chunk: the JavaScript reader takes it and the rest of the file.
          const rest = readLinesFrom(path, base, { line: visitor.line, oversize: visitor.oversize }, { maxLineBytes, headBytes });
          return { offset: rest.offset, ignored, latest: latest(), paired: ex.takePaired() };
        }
        const n = readSync(fd, mem, INPUT + filled, Math.min(capacity - filled, size - pos), pos);
        if (n <= 0) break; // truncated under us: stop at what was consumed
        pos += n;
        const len = filled + n;
        ex.setChunk(len, Math.min(maxLineBytes, 0x7fffffff), mode);
        for (let r = ex.next(); r !== NEED_MORE; r = ex.next()) {
          const from = INPUT + ex.start();
          const to = INPUT + ex.end();
          if (r === CLEAN) visitor.clean(ex.typeOf(), mem.subarray(from, to));
          else if (r === OTHER) visitor.line(mem.subarray(from, to));
          else if (r === TOKEN) tokenLine(visitor, from, to);
          else if (r === CLOSED) closedLine(visitor, from, to);
          else visitor.oversize(mem.subarray(from, Math.min(from + headBytes, INPUT + len)));
        }
        const used = ex.consumed();
        ignored += ex.takeIgnored();
        reached = base + used;
        filled = len - used;
        if (used > 0 && filled > 0) mem.copyWithin(INPUT, INPUT + used, INPUT + len);
        base = pos - filled;
      }
      return { offset: reached, ignored, latest: latest(), paired: ex.takePaired() };
    } finally {
      en.busy = false;
      closeSync(fd);
    }
  }

  /** SPANS[i], relative to the line that starts at `from` (-1 stays -1). */
  const spanAt = (i: number, from: number): number => {
    const v = i32[(SPANS >> 2) + i] as number;
    return v < 0 ? -1 : INPUT + v - from;
  };

  function tokenLine(visitor: ScanVisitor, from: number, to: number): void {
    const line = mem.subarray(from, to);
    if (visitor.token) visitor.token(line, spanAt(0, from), spanAt(1, from), spanAt(2, from), spanAt(3, from));
    else visitor.line(line);
  }

  function closedLine(visitor: ScanVisitor, from: number, to: number): void {
    const line = mem.subarray(from, to);
    if (visitor.closed) visitor.closed(line, spanAt(0, from), spanAt(1, from));
    else visitor.line(line);
  }

  function record(node = 0): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const tracked = children[node] as [number, string][];
    // By index: for…of with destructuring compiles to the iterator protocol, costly for V8 to optimise.
    for (let i = 0; i < tracked.length; i++) {
      const child = (tracked[i] as [number, string])[0];
      const key = (tracked[i] as [number, string])[1];
      const k = kind(child);
      if (k !== 0) out[key] = k === KIND.object ? record(child) : value(child);
    }
    return out;
  }

  return {
    readFile,
    setFlags: (flags) => ex.setFlags(flags),
    record: () => record(0),
    kind,
    value,
    holds(node, what) {
      if (what.length < 2 || what.length > NEEDLE_MAX) throw new Error('line scanner: holds() looks for 2 to 256 bytes');
      if (what !== en.needle) {
        what.copy(mem, NEEDLE);
        en.needle = what;
      }
      return ex.holds(node, what.length) === 1;
    },
    asciiEscape: () => ex.sawAsciiEscape() === 1,
    tokenTotal() {
      if (i32[(TOTAL >> 2) + 8] !== 1) return null;
      const f = en.f64;
      const at = TOTAL >> 3;
      return [f[at] as number, f[at + 1] as number, f[at + 2] as number, f[at + 3] as number];
    },
    summary: { mem, i32, f64: en.f64, set: (flags) => ex.setSummary(flags), take: () => ex.takeSummary() },
  };
}
