/**
 * The little of RFC 6455 the Codex control socket needs (WebSocket over a unix socket, one JSON-RPC
 * message per text frame; client frames masked; line-delimited JSON does not work there). No dependency: node:crypto and Buffers.
 */
import { createHash, randomBytes } from 'node:crypto';

export const OP = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export interface Frame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** Value the server must echo in Sec-WebSocket-Accept for `key`. */
export function acceptKey(key: string): string {
  return createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
}

/** Encodes one frame; clients must mask (`mask` true), servers must not. */
export function encodeFrame(opcode: number, payload: Buffer, mask: boolean): Buffer {
  const len = payload.length;
  const ext = len < 126 ? 0 : len < 65536 ? 2 : 8;
  const head = Buffer.alloc(2 + ext + (mask ? 4 : 0));
  head[0] = 0x80 | opcode;
  head[1] = (mask ? 0x80 : 0) | (ext === 0 ? len : ext === 2 ? 126 : 127);
  if (ext === 2) head.writeUInt16BE(len, 2);
  else if (ext === 8) head.writeBigUInt64BE(BigInt(len), 2);
  if (!mask) return Buffer.concat([head, payload]);
  const key = randomBytes(4);
  key.copy(head, 2 + ext);
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = (payload[i] as number) ^ (key[i & 3] as number);
  return Buffer.concat([head, body]);
}

/**
 * Incremental decoder: push bytes, get whole frames (masked or not). Throws on a frame larger than
 * `maxPayload` so a confused peer cannot make us buffer without bound.
 */
export function createFrameDecoder(maxPayload = 64 * 1024 * 1024): (chunk: Buffer) => Frame[] {
  let buf: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      if (buf.length < 2) break;
      const b0 = buf[0] as number;
      const b1 = buf[1] as number;
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) break;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) break;
        const big = buf.readBigUInt64BE(2);
        if (big > BigInt(maxPayload)) throw new Error('websocket frame too large');
        len = Number(big);
        off = 10;
      }
      if (len > maxPayload) throw new Error('websocket frame too large');
      const masked = (b1 & 0x80) !== 0;
      const total = off + (masked ? 4 : 0) + len;
      if (buf.length < total) break;
      let payload = buf.subarray(off + (masked ? 4 : 0), total);
      if (masked) {
        const key = buf.subarray(off, off + 4);
        const out = Buffer.alloc(len);
        for (let i = 0; i < len; i++) out[i] = (payload[i] as number) ^ (key[i & 3] as number);
        payload = out;
      } else payload = Buffer.from(payload);
      frames.push({ fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, payload });
      buf = buf.subarray(total);
    }
    return frames;
  };
}

/** Joins fragmented messages: returns complete text/binary messages; control frames pass through. */
export function createMessageAssembler(): (f: Frame) => { opcode: number; data: Buffer } | null {
  let parts: Buffer[] = [];
  let opcode = 0;
  return (f) => {
    if (f.opcode >= 8) return { opcode: f.opcode, data: f.payload };
    if (f.opcode !== OP.continuation) { opcode = f.opcode; parts = []; }
    parts.push(f.payload);
    if (!f.fin) return null;
    const data = Buffer.concat(parts);
    parts = [];
    return { opcode, data };
  };
}
