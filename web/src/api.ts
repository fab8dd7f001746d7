/**
 * The board's one HTTP helper: same-origin JSON calls authenticated by the HttpOnly cookie (the
 * token never reaches this code). Failures become ApiError with the daemon's stable code.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return {} as T;
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    parsed = null;
  }
  const envelope = (parsed ?? {}) as { ok?: boolean; error?: { code?: string; message?: string } };
  if (!res.ok || envelope.ok === false) {
    throw new ApiError(res.status, envelope.error?.code ?? `http_${res.status}`, envelope.error?.message ?? `HTTP ${res.status}`);
  }
  return parsed as T;
}
