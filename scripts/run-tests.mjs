// Runs node's own test runner (through tsx) over every *.test.ts under the given folders.
// Node 20's --test takes no glob patterns, so the files are collected here.
// Usage: node scripts/run-tests.mjs [--concurrency N] [--timeout MS] [--retry-failed-files] <dir or file>...
// --retry-failed-files: run the files one at a time and run a failed file once more; the run fails when a
// file fails twice. For the real-harness tier, whose third-party TUIs race a loaded machine now and then:
// the first failure stays in the output, and the summary line names every retried file.
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const opts = { concurrency: '1', timeout: '120000', retry: false };
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--concurrency') opts.concurrency = args[++i];
  else if (args[i] === '--timeout') opts.timeout = args[++i];
  else if (args[i] === '--retry-failed-files') opts.retry = true;
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
const run = (list) => spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${opts.concurrency}`, `--test-timeout=${opts.timeout}`, ...list], { stdio: 'inherit' }).status ?? 1;
if (!opts.retry) process.exit(run(files));
const retried = [];
const failed = [];
for (const file of files) {
  if (run([file]) === 0) continue;
  console.log(`# run-tests: ${file} failed; running it once more`);
  retried.push(file);
  if (run([file]) !== 0) failed.push(file);
}
console.log(`# run-tests: ${files.length} files, ${retried.length} retried${retried.length ? ` (${retried.join(', ')})` : ''}, ${failed.length} failed twice${failed.length ? ` (${failed.join(', ')})` : ''}`);
process.exit(failed.length === 0 ? 0 : 1);
