// shellQuote against the real /bin/sh: what it quotes, sh reads back as the same word.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { shellQuote } from './shell-quote.ts';

it('safe words stay bare; anything else reads back from /bin/sh unchanged', () => {
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
  const words = ['plain', 'two words', "it's", "'", '$HOME', '`id`', 'a\nb', '*', '', 'x;rm -rf y', '--flag=a b'];
  const line = words.map(shellQuote).join(' ');
  const out = execFileSync('/bin/sh', ['-c', `for w in ${line}; do printf '%s\\0' "$w"; done`], { encoding: 'utf8' });
  assert.deepEqual(out.split('\0').slice(0, -1), words);
});
