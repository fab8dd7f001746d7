/** OpenCode session ids: `ses_` + 12 hex (an inverted time) + 14 base62, i.e. 26 letters and digits. */
const OPENCODE = /^ses_[0-9A-Za-z]{26}$/;

export function isOpenCodeId(id: string): boolean {
  return OPENCODE.test(id) && !id.includes('\n');
}
