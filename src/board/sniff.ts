/**
 * Image type from the bytes, never from a file name or a declared type (issue 5: "type sniffed from
 * the bytes, not trusted from the name"). Only the five kinds the board shows are recognised.
 */
export interface SniffedImage {
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';
  ext: 'png' | 'jpg' | 'gif' | 'webp' | 'svg';
}

const startsWith = (b: Uint8Array, sig: number[], at = 0): boolean => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string): number[] => [...s].map((ch) => ch.charCodeAt(0));

/** How far into a text file the `<svg` root may start (after an XML prolog, comments, a doctype). */
const SVG_ROOT_WINDOW = 4096;

function looksLikeSvg(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, Math.min(bytes.length, 64 * 1024)));
  } catch {
    return false;
  }
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('<')) return false;
  // The root element must be <svg ...>: skip the prolog, comments and a doctype before it.
  const rest = head.slice(0, SVG_ROOT_WINDOW).replace(/<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/gi, '').trimStart();
  return /^<svg[\s>]/i.test(rest);
}

export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return { mime: 'image/gif', ext: 'gif' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return { mime: 'image/webp', ext: 'webp' };
  if (looksLikeSvg(bytes)) return { mime: 'image/svg+xml', ext: 'svg' };
  return null;
}

/** Hex SHA-256 of the bytes (Web Crypto: no OS module needed in the domain). */
export async function contentHash(bytes: Uint8Array): Promise<string> {
  // A copy: digest() wants a view of a plain ArrayBuffer, and `bytes` may view a shared pool.
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(bytes));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
