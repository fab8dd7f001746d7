/**
 * The text of a prompt, checked once for every channel. It is data end to end — a JSON field, a
 * pipe's bytes, one argv element — and reaches the session as typed, so the rules are about what a
 * terminal would take as keys rather than text: tab and newlines are text; every other control
 * character (ESC would end a bracketed paste early and start a key sequence) is refused. Line ends
 * are normalised to `\n` (a browser's textarea and a Windows clipboard send `\r\n`). Pure: the board
 * bundles it.
 */

/**
 * Largest prompt, in UTF-8 bytes. 100 KiB is far beyond a typed prompt (a long spec pasted whole is
 * tens of KB) and well inside every channel: the inbox and OpenCode's server take JSON of any size,
 * tmux's paste buffer took 200 KB in one load, herdr reads 1 MiB per request.
 */
export const MAX_PROMPT_BYTES = 100 * 1024;

/**
 * Largest prompt a dormant session is resumed with. It rides on the resume command line, and tmux
 * refuses a command over 16 KiB in all (`command too long`: its client message, argv, cwd and window
 * name together); 8 KiB leaves room for the rest. A longer prompt: resume first, then send.
 */
export const MAX_RESUME_PROMPT_BYTES = 8 * 1024;

export type PromptCheck =
  | { ok: true; text: string; bytes: number }
  | { ok: false; code: 'invalid_body' | 'payload_too_large'; message: string };

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** The prompt to send, or why it cannot be sent. Never throws. */
export function checkPrompt(v: unknown): PromptCheck {
  if (typeof v !== 'string') return { ok: false, code: 'invalid_body', message: 'send { "text": "<the prompt>" }' };
  const text = v.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { ok: false, code: 'invalid_body', message: 'the text is empty' };
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > MAX_PROMPT_BYTES) return { ok: false, code: 'payload_too_large', message: `the text is ${bytes} bytes; a prompt may have at most ${MAX_PROMPT_BYTES} (100 KiB)` };
  const bad = CONTROL.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).padStart(4, '0');
    return { ok: false, code: 'invalid_body', message: `the text holds the control character U+${code.toUpperCase()}; a prompt may hold tabs and newlines, no other control characters` };
  }
  return { ok: true, text, bytes };
}

/** One line of at most `max` characters, for the action log (never the whole prompt). */
export function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('')}…`;
}
