/**
 * The auditor port: an independent model judges a goal's objective against one turn's final report.
 * Contract: `audit` must not throw — every failure (HTTP error, timeout, unparseable or non-strict
 * answer, a missing binary) is returned as `{ ok: false }`, which the driver counts as a failed audit.
 */
import type { Verdict } from '../types.ts';

export interface AuditRequest {
  objective: string;
  /** The turn's final assistant text (never empty: empty reports are not audited). */
  report: string;
  /** Hard bound of the audit, ms. */
  timeoutMs: number;
  /** Working directory for CLI auditors (the session's cwd). */
  cwd?: string | null;
}

export type AuditResult =
  | { ok: true; verdict: Verdict; tokens: number }
  | { ok: false; error: string; tokens: number };

export interface Auditor {
  /** The spec it was built from, e.g. `openai/llama3`, `cli:claude/sonnet`. */
  readonly spec: string;
  audit(request: AuditRequest): Promise<AuditResult>;
}

/**
 * Runs a command without a shell (an argv array), bounded in time: the CLI auditors' only OS seam.
 * The daemon passes a node:child_process implementation; must not throw.
 */
export type CommandRunner = (argv: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs: number }) => Promise<CommandResult>;

export interface CommandResult {
  /** Exit code; null when killed or not started. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not run to completion (spawn error, timeout), else null. */
  error: string | null;
}

/** The Web-standard fetch the HTTP providers use (tests may inject). */
export type FetchFn = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<{ status: number; text(): Promise<string> }>;
