/** A session's character: its emoji, or its pack image (served inert from /api/packs). */
import { memo } from 'react';
import { characterImageUrl, resolveCharacter } from '../../src/board/resolve.ts';
import type { BoardCharacters, Session } from './types.ts';

export const CharacterFace = memo(function CharacterFace({ board, session, size }: { board: BoardCharacters | null; session: Pick<Session, 'harness' | 'id'>; size: number }) {
  if (!board) return <span className="face" style={{ width: size, height: size }} />;
  const { pack, character } = resolveCharacter(board, session);
  const url = characterImageUrl(pack.id, character);
  return (
    <span className="face" style={{ width: size, height: size, fontSize: Math.round(size * 0.8) }} title={character.name} data-character={character.id}>
      {url ? <img src={url} alt={character.name} width={size} height={size} draggable={false} /> : character.emoji}
    </span>
  );
});
