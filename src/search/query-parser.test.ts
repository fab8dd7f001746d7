import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSearchQuery } from './query-parser.ts';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const ok = (text: string) => {
  const r = parseSearchQuery(text, NOW);
  assert.ok(r.ok, `expected '${text}' to parse: ${r.ok ? '' : r.message}`);
  return r.query;
};
const bad = (text: string): string => {
  const r = parseSearchQuery(text, NOW);
  assert.ok(!r.ok, `expected '${text}' to be refused`);
  return r.message;
};

describe('search query parser', () => {
  it('quotes every word and phrase, keeps prefix stars outside the quotes', () => {
    assert.equal(ok('flaky login').match, '"flaky" "login"');
    assert.equal(ok('"exact phrase" bill*').match, '"exact phrase" "bill"*');
    assert.equal(ok('a"b"').match, '"a" "b"', 'a quote inside a word starts a phrase');
  });

  it('turns FTS5 syntax in user text into plain words', () => {
    assert.equal(ok('NEAR(a b) OR c^ d:e').match, '"NEAR(a" "b)" "OR" "c^" "d:e"');
    assert.equal(ok('"x"" OR ""y"').match, '"x" " OR " "y"', 'quotes only delimit phrases: OR inside one is a word');
  });

  it('reads filters, repeated filters and dates', () => {
    const q = ok('migration harness:codex harness:Claude role:user repo:muster branch:main since:2026-11-01 until:2026-11-30');
    assert.deepEqual(q.harnesses, ['codex', 'claude']);
    assert.deepEqual(q.roles, ['user']);
    assert.deepEqual(q.repos, ['muster']);
    assert.deepEqual(q.branches, ['main']);
    assert.equal(q.sinceMs, Date.parse('2026-11-01T00:00:00Z'));
    assert.equal(q.untilMs, Date.parse('2026-12-01T00:00:00Z'), 'until: a day includes that day');
    assert.equal(ok('x since:7d').sinceMs, NOW - 7 * 86_400_000);
    assert.equal(ok('x since:2026-11-30T10:00:00Z').sinceMs, Date.parse('2026-11-30T10:00:00Z'));
    assert.deepEqual(ok('x repo:"my repo"').repos, ['my repo']);
    assert.equal(ok('http://example.com').match, '"http://example.com"', 'an unknown key: is a word');
  });

  it('refuses what it cannot read, saying what to fix', () => {
    assert.match(bad('"open quote'), /never closed/);
    assert.match(bad(''), /no words/);
    assert.match(bad('harness:claude'), /no words/);
    assert.match(bad('x harness:vim'), /not a harness/);
    assert.match(bad('x role:robot'), /not a role/);
    assert.match(bad('x since:yesterday'), /since: takes a date/);
    assert.match(bad('x since:2026-12-01 until:2026-11-01'), /not before/);
    assert.match(bad('x branch:'), /needs a value/);
    assert.match(bad('*'), /no letters or digits/);
    assert.match(bad('a*b'), /may only end a word/);
    assert.match(bad('"!!"'), /no letters or digits/);
    assert.match(bad('w '.repeat(40)), /at most 32/);
    assert.match(bad('x'.repeat(1001)), /at most 1000/);
  });
});
