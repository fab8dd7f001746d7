// Runs node's own test runner (through tsx) over every *.test.ts under the given folders.
// Node 20's --test takes no glob patterns, so the files are collected here.
// Usage: node scripts/run-tests.mjs [--concurrency N] [--timeout MS] <dir or file>...
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const opts = { concurrency: '1', timeout: '120000' };
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--concurrency') opts.concurrency = args[++i];
  else if (args[i] === '--timeout') opts.timeout = args[++i];
  else dirs.push(args[i]);
}
const files = [];
const walk = (d) => {
  for (const n of readdirSync(d).sort()) {
    if (n === 'node_modules' || n.startsWith('.')) continue;
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (n.endsWith('.test.ts')) files.push(p);
  }
};
for (const d of dirs) {
  if (!existsSync(d)) {
    console.error(`no such folder or file: ${d}`);
    process.exit(2);
  }
  if (statSync(d).isDirectory()) walk(d);
  else files.push(d);
}
if (files.length === 0) {
  console.error(`no test files under ${dirs.join(', ')}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${opts.concurrency}`, `--test-timeout=${opts.timeout}`, ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
