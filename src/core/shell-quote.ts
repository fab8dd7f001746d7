/**
 * Quoting for /bin/sh. Muster never runs a shell itself (commands are argv arrays), but harnesses take
 * their hook commands as shell strings, and a person is shown commands to type by hand.
 */

/** One word as /bin/sh reads it back: bare when it holds only safe characters, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
