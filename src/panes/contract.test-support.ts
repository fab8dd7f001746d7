/**
 * The shared contract every PaneManager passes: tmux against a real private tmux
 * server, herdr against test/fakes/fake-herdr. A fixture says how to look at the server from the
 * outside (which pane an attached client shows, the argv a pane was started with).
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaneManager } from './types.ts';

export interface PaneContractFixture {
  manager: PaneManager;
  /** The same kind of manager pointed at a server that is not running. */
  unavailable: PaneManager;
  /** A pane id of the right form that does not exist. */
  missingPaneId: string;
  /** The pane the operator's client shows now (null when no client is attached). */
  focusedPane(): Promise<string | null>;
  /** The argv the pane's first process runs, as the OS or the server records it. */
  startArgv(paneId: string): Promise<string[] | null>;
  /**
   * A command that takes the pane's input as an agent TUI does (raw mode, bracketed paste on) and
   * records it in `out`; resolves once it listens. What it received, read back by `received`.
   */
  reader(out: string): { argv: string[]; ready(paneId: string): Promise<void> };
  /** What the pane's application received so far: the pasted text (newlines as `\n`) and whether Enter followed. */
  received(paneId: string, out: string): Promise<{ text: string; enter: boolean }>;
  /** Attach a client when the manager has that notion (tmux); before this, focus may say no_client. */
  attachClient?(): Promise<void>;
  cleanup(): Promise<void>;
}

export function runPaneContract(name: string, makeFixture: () => Promise<PaneContractFixture>): void {
  describe(`pane contract: ${name}`, () => {
    let fx: PaneContractFixture | undefined;
    const fixture = async (): Promise<PaneContractFixture> => (fx ??= await makeFixture());
    const dir = mkdtempSync(join(tmpdir(), 'muster-pane-contract-'));
    after(async () => {
      await fx?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a server that is not running is unavailable and lists no panes', async () => {
      const { unavailable } = await fixture();
      assert.equal(await unavailable.available(), false);
      assert.deepEqual(await unavailable.listPanes(), []);
    });

    it('open starts exactly the argv in the cwd, labelled; a label full of shell metacharacters is just text', async () => {
      const { manager, startArgv } = await fixture();
      assert.equal(await manager.available(), true);
      const marker = join(dir, 'pwned');
      const label = `fix $(touch ${marker}); \`id\` | "q" & 'x'`;
      const argv = ['sleep', '300'];
      const opened = await manager.open({ cwd: dir, argv, label });
      assert.equal(opened.pane.manager, manager.kind);
      const listed = (await manager.listPanes()).find((p) => p.ref.id === opened.pane.id);
      assert.ok(listed, 'the new pane is listed');
      assert.equal(listed.label, label);
      assert.ok(listed.shellPid > 0, 'the pane reports its first pid');
      assert.deepEqual(await startArgv(opened.pane.id), argv);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(existsSync(marker), false, 'nothing interpreted the label');
    });

    it('focus switches the attached client to the pane, and names a pane that does not exist', async () => {
      const f = await fixture();
      const a = await f.manager.open({ cwd: dir, argv: ['sleep', '301'], label: 'a' });
      const b = await f.manager.open({ cwd: dir, argv: ['sleep', '302'], label: 'b' });
      if (f.attachClient) {
        const r = await f.manager.focus(a.pane.id);
        assert.equal(r.outcome, 'no_client', 'no client attached yet: said so');
        await f.attachClient();
      }
      for (const target of [a, b, a]) {
        const r = await f.manager.focus(target.pane.id);
        assert.equal(r.outcome, 'focused');
        assert.equal(r.pane.id, target.pane.id);
        assert.equal(await f.focusedPane(), target.pane.id);
      }
      const missing = await f.manager.focus(f.missingPaneId);
      assert.equal(missing.outcome, 'pane_not_found');
    });

    it('type pastes the text as data, then Enter: newlines, quotes and shell syntax arrive verbatim and run nothing', async () => {
      const f = await fixture();
      assert.ok(f.manager.type, `${f.manager.kind} can type into panes`);
      const out = join(dir, 'typed');
      const marker = join(dir, 'typed-pwned');
      const reader = f.reader(out);
      const opened = await f.manager.open({ cwd: dir, argv: reader.argv, label: 'reader' });
      await reader.ready(opened.pane.id);
      const text = `first $(touch ${marker}) \`touch ${marker}\`\nsecond; 'q' "x" | & \\ ünï ✓`;
      assert.equal(await f.manager.type(opened.pane.id, text), 'typed');
      let got = { text: '', enter: false };
      for (let i = 0; i < 100 && !got.enter; i++) {
        await new Promise((r) => setTimeout(r, 50));
        got = await f.received(opened.pane.id, out);
      }
      assert.deepEqual(got, { text, enter: true });
      assert.equal(existsSync(marker), false, 'nothing interpreted the text');
      assert.equal(await f.manager.type(f.missingPaneId, 'hello'), 'pane_not_found');
    });
  });
}
