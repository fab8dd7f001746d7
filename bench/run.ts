/** Runs every benchmark under bench/ in turn (each prints its own figures). */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && n !== 'run.ts' && !n.includes('.test.')).sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  console.log(`\n### ${f}`);
  spawnSync(process.execPath, ['--import', 'tsx', `${dir}${f}`], { stdio: 'inherit' });
}
