/** pi's resume: `--session` takes an id (or unique prefix) and appends to that session's file. */
export function piResumeArgv(id: string): string[] {
  return ['pi', '--session', id];
}

/**
 * A first prompt as pi's (and omp's) argument parser reads it: it has no `--`, takes an argument that
 * starts with `-` as an option and one that starts with `@` as a file to attach. Such a text cannot be
 * passed on the command line: null.
 */
export function piMessageArg(text: string): string | null {
  return text.startsWith('-') || text.startsWith('@') ? null : text;
}
