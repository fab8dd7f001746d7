/**
 * The real PackFileStore: uploaded character images under MUSTER_HOME/packs/<pack>/<file>, written
 * to a temp name and renamed so a reader never sees half a file. Pack ids and file names are checked
 * by the caller (src/board/names.ts) and again here, because these become filesystem paths.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PackFileStore } from '../board/ports.ts';

const SAFE_PACK = /^[a-z0-9-]{1,40}$/;
const SAFE_FILE = /^[a-f0-9]{8,64}\.(png|jpg|gif|webp|svg)$/;

function pathOf(root: string, pack: string, file?: string): string {
  if (!SAFE_PACK.test(pack) || (file !== undefined && !SAFE_FILE.test(file))) throw new Error(`unsafe pack path ${pack}/${file ?? ''}`);
  return file === undefined ? join(root, pack) : join(root, pack, file);
}

export function createFsPackFiles(root: string): PackFileStore {
  return {
    async write(pack, file, bytes) {
      const dir = pathOf(root, pack);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const tmp = join(dir, `.${file}.${randomBytes(4).toString('hex')}.tmp`);
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, pathOf(root, pack, file));
    },
    async read(pack, file) {
      try {
        return new Uint8Array(await readFile(pathOf(root, pack, file)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async remove(pack, file) {
      await rm(pathOf(root, pack, file), { force: true });
    },
    async removePack(pack) {
      await rm(pathOf(root, pack), { recursive: true, force: true });
    },
  };
}
