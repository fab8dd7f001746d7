/**
 * The cold index's figure in the top bar while a first start reads a long history ("indexed 312 /
 * 800 transcripts"): the list already shows the sessions read so far. Gone once the index is done.
 */
import { indexingLabel, type IndexingFigure } from '../../src/core/indexing.ts';

export function IndexProgress({ figure }: { figure: IndexingFigure | null }) {
  const label = indexingLabel(figure);
  if (!figure || label === null) return null;
  return (
    <span className="index-progress" role="status" data-testid="index-progress" title="the sessions read so far are listed; the rest appear as they are read">
      <progress max={Math.max(1, figure.total)} value={figure.done} aria-hidden="true" /> {label}
    </span>
  );
}
