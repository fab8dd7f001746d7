/** omp's resume: `--resume <id|prefix>` appends to that session (printed by omp on exit). */
export function ompResumeArgv(id: string): string[] {
  return ['omp', '--resume', id];
}
