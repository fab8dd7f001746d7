import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRecord, createTranscriptSummary, ignoreTranscriptLine, titleOf } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import { costOf } from './transcript-usage.ts';
import { assistantLine, metaLine, toolResultLine, userLine } from './claude-fixtures.test-support.ts';

function summarise(lines: string[]): TranscriptSummary {
  const s = createTranscriptSummary();
  for (const l of lines) if (!ignoreTranscriptLine(l.slice(0, 512))) applyRecord(s, JSON.parse(l));
  return s;
}

describe('claude transcript summary', () => {
  it('title: custom title, then agent name, then AI title, then the first prompt', () => {
    const base = [userLine('fix the login bug'), userLine('and then the tests')];
    assert.equal(titleOf(summarise(base)), 'fix the login bug');
    const ai = [...base, metaLine('ai-title', { aiTitle: 'Login bug fix' })];
    assert.equal(titleOf(summarise(ai)), 'Login bug fix');
    const agent = [...ai, metaLine('agent-name', { agentName: 'login-agent' })];
    assert.equal(titleOf(summarise(agent)), 'login-agent');
    const custom = [metaLine('custom-title', { customTitle: 'hooks-demo' }), ...agent];
    assert.equal(titleOf(summarise(custom)), 'hooks-demo');
  });

  it('the first prompt skips tool results, meta records, commands and system reminders', () => {
    const meta = JSON.stringify({ type: 'user', isMeta: true, message: { role: 'user', content: 'Caveat: generated' } });
    const blocks = JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }, { type: 'text', text: 'real\n  question' }] },
    });
    const s = summarise([toolResultLine('out'), meta, userLine('<command-name>/clear</command-name>'), userLine('<bash-input>ls</bash-input>'), blocks]);
    assert.equal(s.firstPrompt, 'real question');
  });

  it('counts each API message once although Claude writes one record per content block', () => {
    const s = summarise([
      assistantLine({ id: 'msg_1', input: 3118, output: 7, content: 'text', stop: 'tool_use' }),
      assistantLine({ id: 'msg_1', input: 3118, output: 7, content: 'tool_use', stop: 'tool_use' }),
      toolResultLine('hello'),
      assistantLine({ id: 'msg_2', input: 3198, output: 7, cacheRead: 50, cacheWrite: 20 }),
    ]);
    assert.deepEqual(s.usage.tokens, { input: 6316, output: 14, cacheRead: 50, cacheWrite: 20 });
  });

  it('a repeated message with grown counts adds only the growth', () => {
    const s = summarise([assistantLine({ id: 'msg_1', output: 5 }), assistantLine({ id: 'msg_1', output: 40 })]);
    assert.equal(s.usage.tokens.output, 40);
    assert.equal(s.usage.tokens.input, 100);
  });

  it('cost: the transcript cost record wins; several process runs are summed by startTime', () => {
    // Two runs: A (restored and continued under one startTime), B (a second process at once).
    const s = summarise([
      assistantLine({ id: 'm1' }),
      metaLine('cost-state', { totalCostUSD: 0.01, startTime: 111 }),
      metaLine('cost-state', { totalCostUSD: 0.02, startTime: 222 }),
      metaLine('cost-state', { totalCostUSD: 0.03, startTime: 111 }),
    ]);
    assert.equal(costOf(s.usage), 0.05);
  });

  it('cost: messages after the last cost record are added at list price', () => {
    const s = summarise([
      metaLine('cost-state', { totalCostUSD: 0.5, startTime: 1 }),
      // Sonnet 4.5: 1000 in × $3/M + 100 out × $15/M = 0.0045
      assistantLine({ id: 'm9', input: 1000, output: 100 }),
    ]);
    assert.equal(costOf(s.usage), 0.5045);
  });

  it('cost: no cost record → price table; unknown model → null', () => {
    assert.equal(costOf(summarise([assistantLine({ id: 'm1', input: 1_000_000, output: 0 })]).usage), 3);
    assert.equal(costOf(summarise([assistantLine({ id: 'm1', model: 'claude-opus-5-5' })]).usage), null);
    assert.equal(costOf(summarise([userLine('hi')]).usage), null);
  });

  it('keeps cwd, the latest branch, model and times', () => {
    const s = summarise([
      userLine('hi', { cwd: '/w/x', branch: 'main', ts: '2026-11-30T06:00:00.000Z' }),
      assistantLine({ id: 'm1', model: 'claude-haiku-4-5', ts: '2026-11-30T06:00:05.000Z', branch: 'feature/x', cwd: '/w/x' }),
      JSON.stringify({ type: 'assistant', message: { id: 'synthetic', model: '<synthetic>', usage: { input_tokens: 5 } }, timestamp: '2026-11-30T06:00:06.000Z' }),
    ]);
    assert.equal(s.cwd, '/w/x');
    assert.equal(s.gitBranch, 'feature/x');
    assert.equal(s.model, 'claude-haiku-4-5', 'a synthetic message does not change the model');
    assert.equal(s.usage.tokens.input, 100, 'nor count tokens');
    assert.equal(s.firstAt, '2026-11-30T06:00:00.000Z');
    assert.equal(s.lastAt, '2026-11-30T06:00:06.000Z');
    assert.equal(s.lastAssistantAt, '2026-11-30T06:00:06.000Z');
  });

  it('collects PR links from pr-link records and tool output, once each', () => {
    const url = 'https://github.com/acme/widgets/pull/42';
    const s = summarise([
      toolResultLine(`Creating pull request\n${url}\n`),
      metaLine('pr-link', { prUrl: url, prNumber: 42 }),
      metaLine('pr-link', { prUrl: 'https://github.com/acme/widgets/pull/43' }),
      metaLine('pr-link', { prUrl: 'javascript:alert(1)' }),
    ]);
    assert.deepEqual(s.prLinks, [url, 'https://github.com/acme/widgets/pull/43']);
  });

  it('ignores bulky records by their first bytes, never conversation records', () => {
    assert.equal(ignoreTranscriptLine('{"type":"api-request-blob","sessionId":"x"'), true);
    assert.equal(ignoreTranscriptLine('{"type":"api-request","sessionId":"x"'), true);
    assert.equal(ignoreTranscriptLine('{"type":"file-history-snapshot","messageId":"b"'), true);
    assert.equal(ignoreTranscriptLine('{"parentUuid":null,"isSidechain":false,"attachment":{"type":"prompt_snapshot"'), true);
    assert.equal(ignoreTranscriptLine('{"parentUuid":"abc","isSidechain":false,"attachment":{"type":"skill_listing"'), true);
    assert.equal(ignoreTranscriptLine(userLine('hi').slice(0, 512)), false);
    assert.equal(ignoreTranscriptLine(assistantLine({ id: 'm' }).slice(0, 512)), false);
    assert.equal(ignoreTranscriptLine('{"type":"cost-state","sessionId":"x"'), false);
    assert.equal(ignoreTranscriptLine('{"type":"custom-title","customTitle":"x"'), false);
  });

  it('tolerates records of unexpected shapes', () => {
    const s = createTranscriptSummary();
    for (const r of [null, 1, 'x', [], { type: 'assistant' }, { type: 'assistant', message: { usage: 'no' } }, { type: 'user', message: 5 }, { type: 'cost-state', totalCostUSD: 'x' }]) {
      applyRecord(s, r);
    }
    assert.deepEqual(s.usage.tokens, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    assert.equal(titleOf(s), null);
  });
});
