/** Focus, resume and end, each answer (ended, not running, unsupported, no pane manager…) turned into one sentence the operator can act on. */
import { api, ApiError } from './api.ts';

export type ActionName = 'focus' | 'resume' | 'end';
export interface ActionResult { ok: boolean; message: string; command?: string }

interface ResumeAnswer { outcome?: string; command?: string | string[] }

/** `pid`: focus or end that one process of a session open in several (one of its `processes`). */
export async function runAction(action: ActionName, sessionId: string, pid?: number): Promise<ActionResult> {
  try {
    const r = await api<ResumeAnswer & { outcome?: string }>('POST', `/api/${action}`, pid === undefined ? { sessionId } : { sessionId, pid });
    if (action === 'end') return { ok: true, message: pid === undefined ? 'Ended: the harness was sent its clean stop signal.' : `Ended process ${pid}: it was sent its clean stop signal.` };
    if (action === 'focus') return { ok: true, message: pid === undefined ? 'Focused its pane.' : `Focused the pane of process ${pid}.` };
    const command = Array.isArray(r.command) ? r.command.join(' ') : r.command;
    if (r.outcome === 'resumed') return { ok: true, message: 'Resumed in a new pane.', command };
    if (r.outcome === 'already_live') return { ok: true, message: 'Already live: focused it instead.' };
    if (r.outcome === 'no_pane_manager') return { ok: false, message: 'No tmux or herdr to open a pane in. Run this yourself:', command };
    return { ok: true, message: `Resume: ${r.outcome ?? 'done'}`, command };
  } catch (e) {
    if (!(e instanceof ApiError)) return { ok: false, message: `Could not reach the daemon: ${(e as Error).message}` };
    if (action === 'end' && e.status === 409) return { ok: false, message: `Not running: ${e.message}` };
    if (action === 'end' && e.status === 501) return { ok: false, message: `This harness cannot be ended from Muster: ${e.message}` };
    if (e.status === 404 && e.code === 'not_found') return { ok: false, message: `This daemon has no ${action} action yet.` };
    return { ok: false, message: e.message };
  }
}
