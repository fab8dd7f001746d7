/**
 * Characters and packs: choose the active pack, assign a character per harness, create, duplicate
 * (any pack, builtin too), rename and delete custom packs, add emoji, upload images (PNG, JPEG, WebP, GIF, SVG up to ~1.1 MiB), remove one.
 */
import { harnessNames } from './harnesses.ts';
import { useState } from 'react';
import { api } from './api.ts';
import { characterImageUrl } from '../../src/board/resolve.ts';
import type { BoardCharacters, Character, Pack } from './types.ts';


function Face({ pack, c }: { pack: Pack; c: Character }) {
  const url = characterImageUrl(pack.id, c);
  return <span className="face" style={{ width: 28, height: 28, fontSize: 22 }}>{url ? <img src={url} alt={c.name} width={28} height={28} /> : c.emoji}</span>;
}

async function fileBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function CharactersDialog({ board, onClose, onChanged }: { board: BoardCharacters; onClose(): void; onChanged(): void }) {
  const [error, setError] = useState<string | null>(null);
  const [newPack, setNewPack] = useState('');
  const [emoji, setEmoji] = useState<Record<string, string>>({});
  const call = async (path: string, body: unknown) => {
    setError(null);
    try {
      await api('POST', path, body);
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const all = board.packs.flatMap((p) => p.characters.map((c) => ({ p, c })));
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div className="dialog" role="dialog" aria-label="characters" onClick={(e) => e.stopPropagation()} data-testid="characters-dialog">
        <header><h2>Characters</h2><button type="button" className="quiet" onClick={onClose} aria-label="close">✕</button></header>
        {error && <p className="error" role="alert">{error}</p>}
        <h3>Per harness</h3>
        <div className="assign-grid">
          {harnessNames().map((h) => {
            const ref = board.assignments[h];
            return (
              <label key={h}>
                <span>{h}</span>
                <select value={ref ? `${ref.pack}/${ref.character}` : ''} onChange={(e) => {
                  const [pack, character] = e.target.value.split('/');
                  void call('/api/characters/assign', e.target.value ? { harness: h, pack, character } : { harness: h, clear: true });
                }}>
                  <option value="">from the active pack</option>
                  {all.map(({ p, c }) => <option key={`${p.id}/${c.id}`} value={`${p.id}/${c.id}`}>{p.name}: {c.emoji ?? '🖼'} {c.name}</option>)}
                </select>
              </label>
            );
          })}
        </div>
        <h3>Packs</h3>
        {board.packs.map((p) => (
          <div key={p.id} className="pack" data-pack={p.id}>
            <div className="pack-head">
              <label className="active-choice"><input type="radio" name="active-pack" checked={board.active === p.id} onChange={() => void call('/api/characters/active', { pack: p.id })} /> {p.name}</label>
              <span className="pack-tools">
                {p.builtin && <span className="muted">built in</span>}
                {/* A copy (characters and images) the operator can change, also of a builtin pack. */}
                <button type="button" className="quiet" title={`New pack from ${p.name}`} onClick={() => void call('/api/packs', { from: p.id })}>Duplicate</button>
                {!p.builtin && <>
                  <button type="button" className="quiet" onClick={() => { const name = prompt('New name', p.name); if (name) void call('/api/packs/rename', { pack: p.id, name }); }}>Rename</button>
                  <button type="button" className="quiet" onClick={() => { if (confirm(`Delete pack ${p.name}?`)) void call('/api/packs/delete', { pack: p.id }); }}>Delete</button>
                </>}
              </span>
            </div>
            <div className="pack-chars">
              {p.characters.map((c) => (
                <span key={c.id} className="pack-char" title={c.name}>
                  <Face pack={p} c={c} />
                  {!p.builtin && <button type="button" className="x" aria-label={`remove ${c.name}`} onClick={() => void call('/api/packs/remove', { pack: p.id, character: c.id })}>×</button>}
                </span>
              ))}
            </div>
            {!p.builtin && (
              <div className="pack-add">
                <input value={emoji[p.id] ?? ''} onChange={(e) => setEmoji({ ...emoji, [p.id]: e.target.value })} placeholder="emoji" aria-label="emoji" size={6} />
                <button type="button" onClick={() => { void call('/api/packs/emoji', { pack: p.id, emoji: emoji[p.id] }); setEmoji({ ...emoji, [p.id]: '' }); }}>Add emoji</button>
                <label className="upload">Upload image<input type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml" data-testid={`upload-${p.id}`} onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void call('/api/packs/image', { pack: p.id, name: file.name.replace(/\.[^.]*$/, '').slice(0, 60) || 'image', data: await fileBase64(file) });
                }} /></label>
              </div>
            )}
          </div>
        ))}
        <form className="new-pack" onSubmit={(e) => { e.preventDefault(); if (newPack.trim()) { void call('/api/packs', { name: newPack }); setNewPack(''); } }}>
          <input value={newPack} onChange={(e) => setNewPack(e.target.value)} placeholder="New pack name" aria-label="new pack name" />
          <button type="submit">Create pack</button>
        </form>
      </div>
    </div>
  );
}
