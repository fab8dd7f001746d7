/**
 * Character packs: POST /api/packs (create; `{ name?, from }` copies a pack), /api/packs/rename|delete|emoji|image|remove,
 * and GET /api/packs/<pack>/<file> — a file is served only if its pack lists it, from exactly two
 * path parts, inert (nosniff, a sandboxing CSP: an SVG opened directly runs no script on our
 * origin), immutable-cached only when `?v=` is its content hash.
 */
import { MusterError } from '../../errors/index.ts';
import type { CharacterService } from '../../board/index.ts';
import type { EventBus } from '../../events/index.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

/** Request limit of an image upload: 1.5 MiB of JSON carrying base64 bytes (every other route: 64 KiB). */
export const IMAGE_BODY_LIMIT = 1.5 * 1024 * 1024;
export const PACK_FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const PREFIX = '/api/packs/';

/** Base64 (standard or URL-safe, padding optional) to bytes; 400 when it is not base64. */
export function decodeBase64(v: unknown): Uint8Array {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) throw new MusterError('invalid_argument', 'data must be the image bytes in base64');
  return new Uint8Array(Buffer.from(v, 'base64'));
}

/** The two decoded parts of `/api/packs/<pack>/<file>`; 404 for another shape, 400 for bad percent-encoding. */
export function packFilePath(pathname: string): { pack: string; file: string } {
  const parts = pathname.slice(PREFIX.length).split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new MusterError('not_found', 'a pack file is /api/packs/<pack>/<file>');
  let decoded: string[];
  try {
    decoded = parts.map((p) => decodeURIComponent(p));
  } catch {
    throw new MusterError('invalid_argument', 'the path has a bad percent-encoding');
  }
  const [pack, file] = decoded as [string, string];
  if ([pack, file].some((p) => p.includes('/') || p.includes('\\') || p.includes('\0') || p === '.' || p === '..')) {
    throw new MusterError('not_found', 'no such pack file');
  }
  return { pack, file };
}

export function packRoutes(opts: { characters: CharacterService; bus: EventBus }) {
  const svc = opts.characters;
  const changed = (extra: Record<string, unknown>) => {
    opts.bus.publish('board.characters.changed', {});
    return { ok: true, ...extra };
  };
  return (app: App) => {
    app.post('/api/packs', async (c) => {
      const body = await readJsonObject(c);
      // With `from`: a copy of that pack (characters and image files); without: an empty pack.
      if (body.from === undefined) return c.json(changed({ pack: await svc.createPack(body.name) }));
      return c.json(changed(await svc.copyPack(body.from, body.name)));
    });
    app.post('/api/packs/rename', async (c) => {
      const body = await readJsonObject(c);
      return c.json(changed({ pack: await svc.renamePack(body.pack, body.name) }));
    });
    app.post('/api/packs/delete', async (c) => {
      await svc.deletePack((await readJsonObject(c)).pack);
      return c.json(changed({}));
    });
    app.post('/api/packs/emoji', async (c) => {
      const body = await readJsonObject(c);
      return c.json(changed({ character: await svc.addEmoji(body.pack, body.emoji, body.name) }));
    });
    app.post('/api/packs/image', async (c) => {
      const body = await readJsonObject(c, IMAGE_BODY_LIMIT);
      return c.json(changed({ character: await svc.addImage(body.pack, decodeBase64(body.data), body.name) }));
    });
    app.post('/api/packs/remove', async (c) => {
      const body = await readJsonObject(c);
      await svc.removeCharacter(body.pack, body.character);
      return c.json(changed({}));
    });
    app.get(`${PREFIX}*`, async (c) => {
      const url = new URL(c.req.url);
      const { pack, file } = packFilePath(url.pathname);
      const found = await svc.readFile(pack, file);
      if (!found) throw new MusterError('not_found', 'no such pack file');
      const immutable = url.searchParams.get('v') === found.hash;
      // A copy of its own (a small read may share Node's pooled buffer), served as a Uint8Array, which the
      // Node adapter writes at once (an ArrayBuffer body goes through a web stream that detaches it; web.ts).
      return c.body(new Uint8Array(found.bytes), 200, {
        'content-type': found.mime,
        'x-content-type-options': 'nosniff',
        'content-security-policy': PACK_FILE_CSP,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-store',
      });
    });
  };
}
