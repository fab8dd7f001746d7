/**
 * SQLite implementation of the board's repository (src/board/ports.ts). Async like every
 * fleet-shared repository so a Postgres one can satisfy the same port. Choices (active pack,
 * per-harness assignments, per-session overrides) share one table keyed by kind.
 */
import type Database from 'better-sqlite3';
import type { BoardRepository, StoredPack, StoredScene } from '../board/ports.ts';
import type { Character, CharacterRef, Position, SceneFile } from '../board/types.ts';
import type { Harness } from '../core/session.ts';

interface CharacterRow { pack_id: string; data: string }
interface ChoiceRow { key: string; pack_id: string; character_id: string | null }
interface SceneRow { elements: string; app_state: string; positions: string; version: number; updated_at: string }

export function createSqliteBoardRepository(db: Database.Database): BoardRepository {
  const q = {
    packs: db.prepare<[], { id: string; name: string }>('SELECT id, name FROM board_packs ORDER BY created_at, rowid'),
    characters: db.prepare<[], CharacterRow>('SELECT pack_id, data FROM board_characters ORDER BY seq'),
    createPack: db.prepare('INSERT INTO board_packs(id, name, created_at) VALUES (?, ?, ?)'),
    renamePack: db.prepare('UPDATE board_packs SET name = ? WHERE id = ?'),
    deletePack: db.prepare('DELETE FROM board_packs WHERE id = ?'),
    deletePackChoices: db.prepare("DELETE FROM board_choices WHERE pack_id = ? AND kind != 'active'"),
    nextSeq: db.prepare<[], { n: number }>('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM board_characters'),
    addCharacter: db.prepare('INSERT INTO board_characters(pack_id, id, seq, data, created_at) VALUES (?, ?, ?, ?, ?)'),
    removeCharacter: db.prepare('DELETE FROM board_characters WHERE pack_id = ? AND id = ?'),
    removeCharacterChoices: db.prepare('DELETE FROM board_choices WHERE pack_id = ? AND character_id = ?'),
    choices: db.prepare<[string], ChoiceRow>('SELECT key, pack_id, character_id FROM board_choices WHERE kind = ?'),
    putChoice: db.prepare('INSERT OR REPLACE INTO board_choices(kind, key, pack_id, character_id) VALUES (?, ?, ?, ?)'),
    clearChoice: db.prepare('DELETE FROM board_choices WHERE kind = ? AND key = ?'),
    scene: db.prepare<[], SceneRow>('SELECT elements, app_state, positions, version, updated_at FROM board_scene WHERE id = 1'),
    putScene: db.prepare('INSERT OR REPLACE INTO board_scene(id, elements, app_state, positions, version, updated_at) VALUES (1, ?, ?, ?, ?, ?)'),
    putFile: db.prepare('INSERT OR IGNORE INTO board_scene_files(id, mime, data_url, created_at) VALUES (?, ?, ?, ?)'),
    file: db.prepare<[string], { id: string; mime: string; data_url: string }>('SELECT id, mime, data_url FROM board_scene_files WHERE id = ?'),
  };

  const refs = (kind: string): Record<string, CharacterRef> => {
    const out: Record<string, CharacterRef> = {};
    for (const r of q.choices.all(kind)) if (r.character_id) out[r.key] = { pack: r.pack_id, character: r.character_id };
    return out;
  };
  const readScene = (): StoredScene => {
    const r = q.scene.get();
    if (!r) return { elements: [], appState: {}, positions: {}, version: 0, updatedAt: null };
    return {
      elements: JSON.parse(r.elements) as Record<string, unknown>[],
      appState: JSON.parse(r.app_state) as Record<string, unknown>,
      positions: JSON.parse(r.positions) as Record<string, Position>,
      version: r.version,
      updatedAt: r.updated_at,
    };
  };

  return {
    async listPacks() {
      const packs = new Map<string, StoredPack>();
      for (const p of q.packs.all()) packs.set(p.id, { id: p.id, name: p.name, characters: [] });
      for (const r of q.characters.all()) packs.get(r.pack_id)?.characters.push(JSON.parse(r.data) as Character);
      return [...packs.values()];
    },
    async createPack(pack, at, characters = []) {
      db.transaction(() => {
        q.createPack.run(pack.id, pack.name, at);
        let seq = q.nextSeq.get()?.n ?? 1;
        for (const c of characters) q.addCharacter.run(pack.id, c.id, seq++, JSON.stringify(c), at);
      })();
    },
    async renamePack(id, name) {
      return q.renamePack.run(name, id).changes > 0;
    },
    async deletePack(id) {
      return db.transaction(() => {
        q.deletePackChoices.run(id);
        return q.deletePack.run(id).changes > 0; // characters go with it (ON DELETE CASCADE)
      })();
    },
    async addCharacter(pack, character, at) {
      db.transaction(() => {
        const seq = q.nextSeq.get()?.n ?? 1;
        q.addCharacter.run(pack, character.id, seq, JSON.stringify(character), at);
      })();
    },
    async removeCharacter(pack, character) {
      return db.transaction(() => {
        q.removeCharacterChoices.run(pack, character);
        return q.removeCharacter.run(pack, character).changes > 0;
      })();
    },
    async getActive() {
      return q.choices.all('active')[0]?.pack_id ?? null;
    },
    async setActive(pack) {
      q.putChoice.run('active', '', pack, null);
    },
    async assignments() {
      return refs('assign') as Partial<Record<Harness, CharacterRef>>;
    },
    async setAssignment(harness, ref) {
      if (ref) q.putChoice.run('assign', harness, ref.pack, ref.character);
      else q.clearChoice.run('assign', harness);
    },
    async overrides() {
      return refs('override');
    },
    async setOverride(sessionId, ref) {
      if (ref) q.putChoice.run('override', sessionId, ref.pack, ref.character);
      else q.clearChoice.run('override', sessionId);
    },
    async getScene() {
      return readScene();
    },
    async saveScene(scene, files, at) {
      return db.transaction(() => {
        const version = (q.scene.get()?.version ?? 0) + 1;
        for (const f of files) q.putFile.run(f.id, f.mimeType, f.dataURL, at);
        q.putScene.run(JSON.stringify(scene.elements), JSON.stringify(scene.appState), JSON.stringify(scene.positions), version, at);
        return readScene();
      })();
    },
    async sceneFiles(ids) {
      const out: SceneFile[] = [];
      for (const id of ids) {
        const r = q.file.get(id);
        if (r) out.push({ id: r.id, mimeType: r.mime, dataURL: r.data_url });
      }
      return out;
    },
  };
}
