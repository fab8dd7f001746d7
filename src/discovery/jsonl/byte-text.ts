/**
 * Text from a range of a Buffer, for the per-line hot paths of the folds. `buf.toString(encoding, start,
 * end)` is a JS function that checks its bounds and looks the encoding up by name before it calls the
 * binding's slice method; V8 inlines that lookup into every fold function that reads a field, and
 * compiles it again in each thread that folds (the Codex and Claude folds alone: ~4 % faster without it).
 * Node's Buffers carry the slice methods themselves (`latin1Slice`, `utf8Slice`, in the Node versions
 * Muster runs on, though not in its typings); where they are missing, `toString` is used. Callers pass
 * `0 <= start <= end <= length`.
 */

interface SliceMethods {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

const proto = Buffer.prototype as Partial<SliceMethods>;
const hasSlices = typeof proto.latin1Slice === 'function' && typeof proto.utf8Slice === 'function';

/** `buf.toString('latin1', start, end)`: a character per byte. */
export const latin1Text: (buf: Buffer, start: number, end: number) => string = hasSlices
  ? (buf, start, end) => (buf as Buffer & SliceMethods).latin1Slice(start, end)
  : (buf, start, end) => buf.toString('latin1', start, end);

/** `buf.toString('utf8', start, end)`. */
export const utf8Text: (buf: Buffer, start: number, end: number) => string = hasSlices
  ? (buf, start, end) => (buf as Buffer & SliceMethods).utf8Slice(start, end)
  : (buf, start, end) => buf.toString('utf8', start, end);
