import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { geminiHooks, geminiProcessOf } from './hooks.ts';

/** Real hook stdin payloads Gemini CLI 0.61.0 sent in an interactive run with an approved shell command (fixtures/). */
const SAMPLES = new URL('./fixtures/hooks-stdin-samples.jsonl', import.meta.url);

test('Gemini: the real hook payloads map to their statuses, in the order they came', () => {
  const seen: string[] = [];
  for (const line of readFileSync(SAMPLES, 'utf8').split('\n').filter(Boolean)) {
    const rec = JSON.parse(line) as { event: string; ppid: number; stdin: Record<string, unknown> };
    assert.equal(rec.stdin.hook_event_name, rec.event);
    assert.equal(geminiHooks.sessionIdOf(rec.stdin), '11111111-2222-4333-8444-555555555555');
    const t = geminiHooks.transition(rec.event, rec.stdin);
    seen.push(t ? `${rec.event}:${t.status}${t.waitingFor ? `(${t.waitingFor})` : ''}` : `${rec.event}:-`);
  }
  assert.deepEqual(seen, [
    'SessionStart:idle', 'BeforeAgent:working', 'BeforeTool:working',
    'Notification:waiting(permission: echo interactive > i.txt)',
    'AfterTool:working', 'AfterAgent:idle', 'SessionEnd:ended', 'SessionEnd:ended', 'SessionEnd:ended',
  ]);
});

test('the hook\'s parent is the worker; the last SessionEnd copy, reparented to pid 1, names none', () => {
  const ppids = readFileSync(SAMPLES, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { ppid: number }).ppid);
  assert.deepEqual(ppids.map((p) => geminiProcessOf({}, p)), [...Array(8).fill(24220), null]);
  assert.equal(geminiHooks.processOf?.({}, 0), null);
});

test('AfterAgent is the turn end; its report is prompt_response; other notifications change nothing', () => {
  assert.deepEqual(geminiHooks.turnEnd, { event: 'AfterAgent', viaWrapper: false, defaultBlockCap: 0, reportKey: 'prompt_response' });
  assert.equal(geminiHooks.transition('Notification', { notification_type: 'Other' }), null);
  assert.deepEqual(geminiHooks.transition('Notification', { notification_type: 'ToolPermission', message: 'Tool X requires execution' }), { status: 'waiting', waitingFor: 'permission: Tool X requires execution' });
  assert.deepEqual(geminiHooks.transition('Notification', { notification_type: 'ToolPermission' }), { status: 'waiting', waitingFor: 'permission prompt' });
  assert.equal(geminiHooks.transition('BeforeModel', {}), null, 'not registered: it fires on every model call');
  const mcp = { type: 'mcp', title: 'Confirm MCP Tool Execution', serverName: 'muster', toolName: 'ask_operator' };
  assert.equal(geminiHooks.transition('Notification', { notification_type: 'ToolPermission', details: mcp })?.waitingFor, 'permission: muster/ask_operator');
  assert.equal(geminiHooks.transition('Notification', { notification_type: 'ToolPermission', details: { type: 'edit', fileName: 'a.ts' } })?.waitingFor, 'permission: edit a.ts');
});
