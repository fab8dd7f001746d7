import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clean, createStyler, colorEnabled, fit, textWidth, wrap } from './ansi.ts';

describe('terminal text', () => {
  it('fit pads and cuts to exact display width, counting wide characters as two', () => {
    assert.equal(fit('abc', 5), 'abc  ');
    assert.equal(fit('abcdef', 4), 'abc…');
    assert.equal(textWidth(fit('日本語のタイトル', 7)), 7);
    assert.equal(textWidth(fit('🚀 launch the rocket', 6)), 6);
    assert.equal(fit('x', 0), '');
  });

  it('clean removes escape sequences and line breaks an agent could use to move the cursor', () => {
    assert.equal(clean('a\x1b[2Jb\nc\u2028d\x9b'), 'a [2Jb c d ');
    assert.equal(clean(null), '');
  });

  it('wrap keeps every line within the width, hard-breaking long words', () => {
    const lines = wrap('a question that is long enough to wrap, with averyveryverylongwordinside', 12);
    assert.ok(lines.length > 3);
    for (const l of lines) assert.ok(textWidth(l) <= 12, l);
    assert.ok(lines.join('').replace(/ /g, '').includes('averyvery'));
    assert.deepEqual(wrap('x', 1), ['x']);
  });

  it('NO_COLOR keeps bold/inverse but drops colours', () => {
    assert.equal(createStyler(false)('hi', 'red', 'bold'), '\x1b[1mhi\x1b[0m');
    assert.equal(createStyler(true)('hi', 'red', 'bold'), '\x1b[31;1mhi\x1b[0m');
    assert.equal(colorEnabled({ NO_COLOR: '1' }), false);
    assert.equal(colorEnabled({ NO_COLOR: '' }), true);
  });
});
