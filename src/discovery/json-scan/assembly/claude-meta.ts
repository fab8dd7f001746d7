// Claude's prompt records and cost records folded into the summary (claude-summary.ts calls these once
// it has checked the record's time). applyRecord's 'last-prompt' keeps the latest prompt that is not
// blank: only the latest one matters, so the module keeps its string as written, for the host to decode.
// 'cost-state' (transcript-usage.ts, applyCostState) keeps the largest total per start time and starts
// the uncosted tokens again: the module queues the two numbers' texts for the host, which parses them as
// JSON.parse would, and resets its own uncosted tokens. A record the module cannot decide goes back to
// the host.
import { COST_MAX, COST_TEXT, C_SIZE, D_PROMPT, K_NUMBER, K_STRING, PROMPT_CAP, S_COSTS, S_PROMPT, SUMMARY } from './layout';
import { from, kind, textAt, to } from './out';
import { mark, resetUncosted } from './claude-usage';

// The nodes, as transcript-fast.ts's PATHS number them.
const N_LAST_PROMPT: i32 = 16;
const N_TOTAL_COST: i32 = 17;
const N_START_TIME: i32 = 18;

/**
 * True when the prompt record can be folded here: its prompt is no string, or a string of at most
 * PROMPT_CAP bytes (escapes as written) that is surely not blank.
 */
export function promptFoldable(): bool {
  if (kind(N_LAST_PROMPT) != K_STRING) return true; // not a string: it changes nothing
  if (to(N_LAST_PROMPT) - from(N_LAST_PROMPT) > <usize>PROMPT_CAP) return false;
  // A printable ASCII character that is not a space, outside escapes: trim() leaves something (a text of
  // spaces and escapes, or of characters over 0x7f that may be Unicode spaces, is the host's to judge).
  const e = to(N_LAST_PROMPT) - 1;
  let p = textAt(N_LAST_PROMPT);
  while (p < e) {
    const c = <u32>load<u8>(p);
    if (c == 0x5c) p += load<u8>(p + 1) == 0x75 ? 6 : 2; // the scan validated every escape
    else if (c - 0x21 < 0x5e) return true;
    else p++;
  }
  return false;
}

/** Keeps the prompt record's string, as written with its quotes, as the latest prompt (promptFoldable said yes). */
export function foldPrompt(): void {
  if (kind(N_LAST_PROMPT) != K_STRING) return;
  const n = to(N_LAST_PROMPT) - from(N_LAST_PROMPT);
  store<i32>(SUMMARY + S_PROMPT, <i32>n);
  memory.copy(SUMMARY + S_PROMPT + 4, from(N_LAST_PROMPT), n);
  mark(D_PROMPT);
}

/** True when the number's text has an exponent or a sign (its value or whether it is finite is then the host's to tell). */
function signedOrExponent(node: i32): bool {
  for (let p = from(node); p < to(node); p++) {
    const c = <u32>load<u8>(p) | 0x20;
    if (c == 0x65 || c == 0x2d) return true; // e, E or '-' (0x2d | 0x20 is itself)
  }
  return false;
}

// What a cost record is to the module.
export const NO_EFFECT: i32 = 0; // its total is no number: it changes nothing
export const QUEUE: i32 = 1;
export const BACK: i32 = 2;

/**
 * What to do with a cost record: queued when its total is a number of at most COST_TEXT characters with
 * no sign nor exponent (so finite and not below 0: the uncosted tokens start again here).
 */
export function costVerdict(): i32 {
  if (kind(N_TOTAL_COST) != K_NUMBER) return NO_EFFECT;
  if (to(N_TOTAL_COST) - from(N_TOTAL_COST) > COST_TEXT || signedOrExponent(N_TOTAL_COST)) return BACK;
  // The start time's value is the host's to read (applyCostState takes a number that is not finite as none).
  if (kind(N_START_TIME) == K_NUMBER && to(N_START_TIME) - from(N_START_TIME) > COST_TEXT) return BACK;
  return load<i32>(SUMMARY + S_COSTS) == COST_MAX ? BACK : QUEUE;
}

/** Queues the cost record's total and start time (costVerdict said QUEUE); the uncosted tokens start again. */
export function foldCost(): void {
  const n = load<i32>(SUMMARY + S_COSTS);
  const c = SUMMARY + S_COSTS + 4 + <usize>n * C_SIZE;
  const total = <i32>(to(N_TOTAL_COST) - from(N_TOTAL_COST));
  store<i32>(c, total);
  memory.copy(c + 8, from(N_TOTAL_COST), <usize>total);
  if (kind(N_START_TIME) == K_NUMBER) {
    const start = <i32>(to(N_START_TIME) - from(N_START_TIME));
    store<i32>(c + 4, start);
    memory.copy(c + 8 + COST_TEXT, from(N_START_TIME), <usize>start);
  } else store<i32>(c + 4, -1);
  store<i32>(SUMMARY + S_COSTS, n + 1);
  resetUncosted();
}
