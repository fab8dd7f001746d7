/**
 * Test support: a temp Gemini home holding real chat files Gemini CLI 0.61.0 wrote (fixtures/chats/,
 * copied from runs against the fake model), laid out as Gemini does (`tmp/<slug>/chats/`, with
 * `.project_root`), and a stand-in gemini worker process for liveness.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProc } from '../../../discovery/proc/index.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** `-p "hello there"` and, in a second file, its `--resume … -p "second turn"`. */
export const PRINTED = '45d26ea4-d13b-4a42-a83e-dcc01d455b92';
export const PRINTED_FILES = ['session-2026-12-01T12-50-45d26ea4.jsonl', 'session-2026-12-01T12-53-45d26ea4.jsonl'];
/** Interactive: a shell tool call approved at its permission prompt (its reply written twice). */
export const INTERACTIVE = '11111111-2222-4333-8444-555555555555';
export const INTERACTIVE_FILE = 'session-2026-12-01T12-51-11111111.jsonl';
/** `-p "hello three"`, later summarised by Gemini (`$set.summary`). */
export const SUMMARISED = '2ff51962-fc72-4315-b60c-38c1546795bc';
export const SUMMARISED_FILE = 'session-2026-12-01T12-51-2ff51962.jsonl';

export interface GeminiHome {
  root: string;
  /** The `.gemini` directory. */
  home: string;
  /** The project directory the chats belong to. */
  cwd: string;
  chats: string;
  cleanup(): void;
}

/** A temp home with the given fixture chats (default: all of them) in one project. */
export function tempGeminiHome(files: string[] = [...PRINTED_FILES, INTERACTIVE_FILE, SUMMARISED_FILE]): GeminiHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-gemini-'));
  const home = path.join(root, 'home', '.gemini');
  const cwd = path.join(root, 'proj');
  const chats = path.join(home, 'tmp', 'proj', 'chats');
  fs.mkdirSync(chats, { recursive: true });
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(home, 'tmp', 'proj', '.project_root'), cwd);
  for (const f of files) fs.copyFileSync(path.join(FIXTURES, 'chats', f), path.join(chats, f));
  return { root, home, cwd, chats, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** A real process that looks like a gemini worker: node running a script named `gemini`, GEMINI_CLI_NO_RELAUNCH set. */
export async function standInWorker(root: string, args: string[], cwd: string): Promise<ChildProcess & { pid: number }> {
  const script = path.join(root, 'bin', 'gemini');
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, 'setInterval(() => {}, 1 << 30);\n');
  const child = spawn(process.execPath, [script, ...args], { cwd, env: { GEMINI_CLI_NO_RELAUNCH: 'true' }, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('could not start the stand-in gemini');
  const proc = createProc();
  for (let i = 0; i < 200 && proc.read(child.pid)?.argv[1] !== script; i++) await new Promise((r) => setTimeout(r, 10));
  return child as ChildProcess & { pid: number };
}
