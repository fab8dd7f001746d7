/**
 * Typed errors with stable codes. Every failure that crosses a boundary (HTTP, CLI, MCP)
 * is a MusterError; its `code` is the contract, its message is for people and says what to do.
 * Never parse a kind back out of a message string.
 */
export type ErrorCode =
  | 'already_running'
  | 'owned_by_other_build'
  | 'lock_blocked'
  | 'lock_lost'
  | 'lock_io'
  | 'not_running'
  | 'daemon_unreachable'
  | 'daemon_start_failed'
  | 'unauthorized'
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_setting'
  | 'invalid_id'
  | 'invalid_argument'
  | 'invalid_query'
  | 'not_found'
  | 'session_not_found'
  | 'session_not_live'
  | 'process_not_found'
  | 'page_not_found'
  | 'page_already_answered'
  | 'page_closed'
  | 'too_many_pending'
  | 'unsupported'
  | 'no_pane'
  | 'no_client'
  | 'no_pane_manager'
  | 'pane_mismatch'
  | 'busy'
  | 'cwd_missing'
  | 'cwd_unknown'
  | 'usage'
  | 'store_error'
  | 'pack_not_found'
  | 'pack_read_only'
  | 'character_not_found'
  | 'invalid_image'
  | 'invalid_scene'
  | 'goal_not_found'
  | 'goal_conflict'
  | 'goal_not_drivable'
  | 'harness_failed'
  | 'config_malformed'
  | 'fleet_not_joined'
  | 'fleet_url_invalid'
  | 'fleet_unreachable'
  | 'fleet_schema'
  | 'fleet_from_env'
  | 'fleet_command_refused'
  | 'fleet_command_timeout'
  | 'host_unreachable'
  | 'host_read_only'
  | 'remote_session'
  | 'invalid_directory'
  | 'invalid_branch'
  | 'not_a_repository'
  | 'branch_in_use'
  | 'worktree_exists'
  | 'git_failed'
  | 'harness_unavailable'
  | 'pane_failed'
  | 'internal';

/** Default HTTP status per code; one place maps kinds to statuses. */
const STATUS: Record<ErrorCode, number> = {
  already_running: 409,
  owned_by_other_build: 409,
  lock_blocked: 409,
  lock_lost: 409,
  lock_io: 500,
  not_running: 409,
  daemon_unreachable: 503,
  daemon_start_failed: 503,
  unauthorized: 401,
  forbidden_host: 403,
  forbidden_origin: 403,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_json: 400,
  invalid_body: 400,
  invalid_setting: 400,
  invalid_id: 400,
  invalid_argument: 400,
  invalid_query: 400,
  not_found: 404,
  session_not_found: 404,
  session_not_live: 409,
  process_not_found: 404,
  page_not_found: 404,
  page_already_answered: 409,
  page_closed: 409,
  too_many_pending: 429,
  unsupported: 501,
  no_pane: 409,
  no_client: 409,
  no_pane_manager: 503,
  /** The pane's foreground process is not the session's verified process: nothing is typed into it. */
  pane_mismatch: 409,
  /** The session is working (or waiting on a prompt of its own) and its channel cannot queue a prompt. */
  busy: 409,
  cwd_missing: 409,
  cwd_unknown: 409,
  usage: 400,
  store_error: 500,
  pack_not_found: 404,
  pack_read_only: 409,
  character_not_found: 404,
  invalid_image: 400,
  invalid_scene: 400,
  goal_not_found: 404,
  goal_conflict: 409,
  goal_not_drivable: 409,
  harness_failed: 502,
  config_malformed: 409,
  fleet_not_joined: 409,
  fleet_url_invalid: 400,
  fleet_unreachable: 503,
  fleet_schema: 409,
  fleet_from_env: 409,
  fleet_command_refused: 400,
  fleet_command_timeout: 504,
  host_unreachable: 503,
  host_read_only: 403,
  remote_session: 409,
  invalid_directory: 400,
  invalid_branch: 400,
  not_a_repository: 400,
  branch_in_use: 409,
  worktree_exists: 409,
  git_failed: 500,
  harness_unavailable: 409,
  pane_failed: 502,
  internal: 500,
};

export class MusterError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra, serialisable facts for the envelope (e.g. the pid of the running owner). */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options?: { status?: number; details?: Record<string, unknown>; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MusterError';
    this.code = code;
    this.status = options?.status ?? STATUS[code];
    this.details = options?.details;
  }
}

export function isMusterError(e: unknown): e is MusterError {
  return e instanceof MusterError;
}

export interface ErrorEnvelope {
  ok: false;
  error: { code: ErrorCode; message: string } & Record<string, unknown>;
}

/**
 * The one serializer. Unknown errors become `internal` with a generic message:
 * no stack or foreign message ever leaves the process (the caller logs the original).
 */
export function toErrorEnvelope(e: unknown): { status: number; body: ErrorEnvelope } {
  if (isMusterError(e)) {
    return { status: e.status, body: { ok: false, error: { ...(e.details ?? {}), code: e.code, message: e.message } } };
  }
  return { status: 500, body: { ok: false, error: { code: 'internal', message: 'internal error; see the daemon log' } } };
}
