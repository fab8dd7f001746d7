// Claude Code's records Muster never shows, by their first bytes (transcript-lines.ts, isIgnoredLine,
// says the same in TypeScript): metadata by its leading type, attachments by the conversation head that
// precedes them (`{"parentUuid":…,"isSidechain":…,"attachment":`, within the first 512 bytes).
import { startsWith } from './bytes';

const HEAD_WINDOW: usize = 512;

export function claudeIgnored(p: usize, e: usize): bool {
  if (startsWith(p, e, '{"type":"')) {
    const t = p + 9;
    return startsWith(t, e, 'api-request') || startsWith(t, e, 'file-history-') || startsWith(t, e, 'tools-used"') ||
      startsWith(t, e, 'mode"') || startsWith(t, e, 'permission-mode"') || startsWith(t, e, 'atis-latch"');
  }
  if (!startsWith(p, e, '{"parentUuid":')) return false;
  let at = p + 14;
  if (startsWith(at, e, 'null')) at += 4;
  else if (at < e && load<u8>(at) == 0x22) {
    let close = at + 1;
    while (close < e && load<u8>(close) != 0x22) close++;
    if (close >= e || close - p >= HEAD_WINDOW) return false;
    at = close + 1;
  } else return false;
  if (!startsWith(at, e, ',"isSidechain":')) return false;
  at += 15;
  if (startsWith(at, e, 'true')) at += 4;
  else if (startsWith(at, e, 'false')) at += 5;
  else return false;
  return at + 14 - p <= HEAD_WINDOW && startsWith(at, e, ',"attachment":');
}
