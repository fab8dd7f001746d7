/**
 * A process tree read from /proc/<pid>/stat alone — ppid, tty, process group and the tty's
 * foreground group are all the pane map needs. The full ProcPort snapshot also reads cmdline, exe
 * and cwd of every process, which is several times the cost on a busy host; the map is rebuilt
 * on every focus that misses the cache, so it gets its own lighter read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseStat } from '../sources/proc/index.ts';
import type { ProcInfo, ProcessTable } from '../sources/proc/types.ts';

export function readProcTree(root = '/proc', now: () => number = Date.now): ProcessTable {
  const byPid = new Map<number, ProcInfo>();
  const children = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    names = [];
  }
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let text: string;
    try {
      text = readFileSync(`${root}/${name}/stat`, 'latin1');
    } catch {
      continue; // exited between readdir and read
    }
    const st = parseStat(text);
    if (!st) continue;
    byPid.set(st.pid, { pid: st.pid, ppid: st.ppid, argv: [], comm: st.comm, exe: null, cwd: null, ttyNr: st.ttyNr, tpgid: st.tpgid, pgrp: st.pgrp, startTicks: st.startTicks, startedAtMs: 0 });
    const list = children.get(st.ppid);
    if (list) list.push(st.pid);
    else children.set(st.ppid, [st.pid]);
  }
  return { byPid, children, bootTimeMs: 0, takenAtMs: now() };
}
