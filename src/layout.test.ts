// Dependencies point inward: domain folders never import the HTTP server, the CLI,
// the web app, or OS modules directly — adapters (sources, panes, daemon, store) do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('.', import.meta.url).pathname;
const DOMAIN = ['hub', 'pager', 'goals', 'events', 'errors', 'send', 'usage'];
const FORBIDDEN_FOLDERS = ['server', 'cli', 'web'];
const OS_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|os|dgram|cluster|worker_threads)$/;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.test-support.ts') ? [p] : [];
  });
}

export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push((m[1] ?? m[2]) as string);
  }
  return out;
}

test('the import scanner sees static, re-export and dynamic imports', () => {
  assert.deepEqual(importsOf(`import a from 'node:fs';\nexport { b } from '../server/x.ts';\nconst c = await import('../cli/y.ts');`), ['node:fs', '../server/x.ts', '../cli/y.ts']);
});

test('domain folders do not import server/, cli/, web/ or OS modules', () => {
  const offences: string[] = [];
  for (const folder of DOMAIN) {
    for (const file of files(join(SRC, folder))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const rel = relative(SRC, file);
        if (OS_MODULES.test(spec)) offences.push(`${rel} imports ${spec}`);
        if (spec.startsWith('.') && FORBIDDEN_FOLDERS.some((f) => new RegExp(`(^|/)${f}/`).test(spec.replace(/^(\.\.\/)+/, '')))) offences.push(`${rel} imports ${spec}`);
      }
    }
  }
  assert.deepEqual(offences, []);
});

test('nothing but cli/ imports cli/, and nothing outside server/, daemon/ and cli/ imports server/', () => {
  const offences: string[] = [];
  for (const file of files(SRC)) {
    const rel = relative(SRC, file);
    const top = rel.split('/')[0];
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      if (/(^|\/)cli\//.test(spec) && top !== 'cli') offences.push(`${rel} imports ${spec}`);
      if (/(^|\/)server\//.test(spec) && !['server', 'daemon', 'cli'].includes(top ?? '')) offences.push(`${rel} imports ${spec}`);
    }
  }
  assert.deepEqual(offences, []);
});

/** Imports that stay in the built code: `import type` / `export type` are erased, everything else is not. */
export function valueImportsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push((m[1] ?? m[2]) as string);
  }
  return out;
}

test('the value-import scanner skips type-only imports', () => {
  assert.deepEqual(valueImportsOf(`import type { A } from './a.ts';\nimport { b, type C } from './b.ts';\nexport type { D } from './d.ts';\nexport { e } from './e.ts';\nimport './f.css';`), ['./b.ts', './e.ts', './f.css']);
});

test('what the board bundles from src/ imports no OS module, however deep (the shared stream reducer among it)', () => {
  const web = join(SRC, '..', 'web', 'src');
  const webFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? webFiles(join(dir, n)) : /\.tsx?$/.test(n) ? [join(dir, n)] : []));
  const seen = new Set<string>();
  const offences: string[] = [];
  const visit = (file: string, from: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of valueImportsOf(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('node:') || OS_MODULES.test(spec)) offences.push(`${relative(SRC, file)} (from ${from}) imports ${spec}`);
      else if (spec.startsWith('.') && spec.endsWith('.ts')) visit(join(file, '..', spec), from);
    }
  };
  for (const file of webFiles(web)) {
    for (const spec of valueImportsOf(readFileSync(file, 'utf8'))) {
      const target = join(file, '..', spec);
      if (spec.startsWith('.') && target.startsWith(SRC)) visit(target, relative(web, file));
    }
  }
  assert.ok(seen.has(join(SRC, 'board', 'resolve.ts')), 'the scan reaches what the board imports');
  assert.deepEqual(offences, []);
});
