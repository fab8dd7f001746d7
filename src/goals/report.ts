/**
 * The turn's final report: the last non-empty assistant message. Tool results are never the report —
 * an agent whose last act was a tool call has not reported, and a tool's output is not its claim.
 */
export interface ReportMessage {
  role: 'user' | 'assistant' | 'tool' | string;
  text: string;
}

export function finalReport(messages: readonly ReportMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m) continue;
    if (m.role === 'user') return null; // the turn's own messages end at its prompt
    if (m.role === 'assistant' && m.text.trim() !== '') return m.text;
  }
  return null;
}
