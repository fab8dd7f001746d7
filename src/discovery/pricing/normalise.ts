/**
 * Reduces a model string as harnesses report it to a key of the price table: provider prefixes
 * (`anthropic/…`, Bedrock `us.anthropic.…-v2:0`, Vertex `…@20241022`), context-window tags
 * (`[1m]`), `-latest` and release dates are dropped. No fuzzy matching beyond that: a similar
 * name is not the same price (Opus 4.5 costs a third of Opus 4).
 */
export function normaliseModel(model: string): string {
  let m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  if (slash >= 0) m = m.slice(slash + 1);
  m = m.replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '');
  m = m.replace(/\[[^\]]*\]$/, '');
  m = m.replace(/@.*$/, '');
  m = m.replace(/-v\d+(?::\d+)?$/, '');
  m = m.replace(/-latest$/, '');
  m = m.replace(/-\d{8}$/, '');
  m = m.replace(/-\d{4}-\d{2}-\d{2}$/, '');
  // Copilot CLI writes Claude versions with dots (`claude-sonnet-4.5`); Anthropic's ids use dashes.
  if (m.startsWith('claude-')) m = m.replace(/(\d)\.(\d)/g, '$1-$2');
  return m;
}
