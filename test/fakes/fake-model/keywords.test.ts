import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keywordHandler } from './keywords.ts';
import { classify } from './request.ts';
import type { FakeRequest } from './types.ts';

function req(pathname: string, body: object, headers: Record<string, string> = {}): FakeRequest {
  return { seq: 1, at: 0, method: 'POST', path: pathname, headers, body, protocol: classify('POST', pathname), stream: true };
}

const handler = keywordHandler();

test('TOOL_BASH becomes each harness\'s own shell tool', () => {
  const user = { role: 'user', content: [{ type: 'text', text: 'please TOOL_BASH' }, { type: 'text', text: '<system-reminder>x</system-reminder>' }] };
  assert.deepEqual(handler(req('/v1/messages', { messages: [user] }))?.toolCalls, [{ name: 'Bash', input: { command: 'echo hello-from-tool', description: 'fake tool call' } }]);
  assert.deepEqual(handler(req('/v1/chat/completions', { messages: [user] }))?.toolCalls, [{ name: 'bash', input: { command: 'echo hello-from-tool' } }]);
  assert.deepEqual(handler(req('/v1/chat/completions', { messages: [user] }, { 'user-agent': 'opencode/1.18.33' }))?.toolCalls, [
    { name: 'bash', input: { command: 'echo hello-from-tool', description: 'fake tool call' } },
  ]);
  const codexUser = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'TOOL_BASH' }] };
  assert.deepEqual(handler(req('/v1/responses', { input: [codexUser] }))?.toolCalls, [{ name: 'exec_command', input: { cmd: 'echo hello-from-tool', yield_time_ms: 5000 } }]);
});

test('after a tool result the answer is plain text, whatever the last typed message says', () => {
  const anthropic = req('/v1/messages', {
    messages: [
      { role: 'user', content: 'TOOL_BASH' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }, { type: 'text', text: 'reminder' }] },
    ],
  });
  assert.deepEqual(handler(anthropic), { text: 'tool done' });
  const chat = req('/v1/chat/completions', { messages: [{ role: 'user', content: 'TOOL_BASH' }, { role: 'tool', tool_call_id: 'c', content: 'ok' }] });
  assert.deepEqual(handler(chat), { text: 'tool done' });
  const responses = req('/v1/responses', { input: [{ role: 'user', content: 'TOOL_BASH' }, { type: 'function_call_output', call_id: 'c', output: 'ok' }] });
  assert.deepEqual(handler(responses), { text: 'tool done' });
});

test('RUNCMD, TOOLCALL with MCP names, SLOW, and no keyword', () => {
  const chat = (text: string, headers: Record<string, string> = {}): FakeRequest => req('/v1/chat/completions', { messages: [{ role: 'user', content: text }] }, headers);
  assert.deepEqual(handler(chat('RUNCMD: ls -la /tmp\nmore'))?.toolCalls, [{ name: 'bash', input: { command: 'ls -la /tmp' } }]);
  assert.deepEqual(handler(chat('TOOLCALL: muster/list_sessions {"limit":2}'))?.toolCalls, [{ name: 'muster_list_sessions', input: { limit: 2 } }]);
  const codex = req('/v1/responses', { input: [{ role: 'user', content: 'TOOLCALL: muster/list_sessions {}' }] });
  assert.deepEqual(handler(codex)?.toolCalls, [{ name: 'list_sessions', namespace: 'mcp__muster', input: {} }]);
  const claude = req('/v1/messages', { messages: [{ role: 'user', content: 'TOOLCALL: muster/list_sessions' }] });
  assert.deepEqual(handler(claude)?.toolCalls, [{ name: 'mcp__muster__list_sessions', input: {} }]);
  assert.equal(handler(chat('SLOW3'))?.delayMs, 3000);
  assert.equal(handler(chat('be SLOW please'))?.delayMs, 20_000);
  assert.equal(handler(chat('just chat')), undefined);
  // Only the last user message counts.
  const older = req('/v1/chat/completions', { messages: [{ role: 'user', content: 'TOOL_BASH' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'thanks' }] });
  assert.equal(handler(older), undefined);
});

test('Gemini: run_shell_command and mcp_<server>_<tool>; a functionResponse content is a tool result, not the typed text', () => {
  const gem = (contents: object[]): FakeRequest => req('/v1beta/models/gemini-x:streamGenerateContent', { contents });
  assert.deepEqual(handler(gem([{ role: 'user', parts: [{ text: '<session_context>…</session_context>' }, { text: 'RUNCMD: echo hi' }] }]))?.toolCalls, [
    { name: 'run_shell_command', input: { command: 'echo hi', description: 'fake tool call' } },
  ]);
  assert.deepEqual(handler(gem([{ role: 'user', parts: [{ text: 'TOOLCALL: muster/ask_operator {"question":"q"}' }] }]))?.toolCalls, [
    { name: 'mcp_muster_ask_operator', input: { question: 'q' } },
  ]);
  const afterTool = gem([
    { role: 'user', parts: [{ text: 'RUNCMD: echo hi' }] },
    { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: {} } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'hi' } } }] },
  ]);
  assert.deepEqual(handler(afterTool), { text: 'tool done' });
});

test('Copilot (x-interaction-type header): bash with a description, MCP tools as <server>-<tool>', () => {
  const headers = { 'x-interaction-type': 'conversation-user', 'x-initiator': 'user' };
  const chat = (text: string): FakeRequest => req('/v1/chat/completions', { messages: [{ role: 'user', content: `<current_datetime>x</current_datetime>\n\n${text}` }] }, headers);
  assert.deepEqual(handler(chat('TOOL_BASH'))?.toolCalls, [{ name: 'bash', input: { command: 'echo hello-from-tool', description: 'fake tool call' } }]);
  assert.deepEqual(handler(chat('TOOLCALL: muster/notify_operator {"message":"m"}'))?.toolCalls, [{ name: 'muster-notify_operator', input: { message: 'm' } }]);
});
