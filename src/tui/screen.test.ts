import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createScreen } from './screen.ts';

describe('screen', () => {
  it('first paint clears and draws every line; later paints rewrite only changed lines', () => {
    const writes: string[] = [];
    const screen = createScreen((d) => writes.push(d));
    screen.paint(['a', 'b', 'c']);
    assert.ok(writes[0]!.includes('\x1b[2J'));
    for (const [row, text] of [[1, 'a'], [2, 'b'], [3, 'c']] as const) assert.ok(writes[0]!.includes(`\x1b[${row};1H${text}\x1b[K`));
    screen.paint(['a', 'B', 'c']);
    assert.equal(writes[1], '\x1b[?2026h\x1b[2;1HB\x1b[K\x1b[?2026l');
    screen.paint(['a', 'B', 'c']);
    assert.equal(writes.length, 2, 'an identical frame writes nothing');
    screen.invalidate();
    screen.paint(['a', 'B', 'c']);
    assert.ok(writes[2]!.includes('\x1b[2J'), 'full repaint after invalidate');
  });
});
