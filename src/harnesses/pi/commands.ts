/** pi's resume: `--session` takes an id (or unique prefix) and appends to that session's file. */
export function piResumeArgv(id: string): string[] {
  return ['pi', '--session', id];
}
