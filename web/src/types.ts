/** Shapes the board reads from the daemon (the server's own types, imported type-only). */
export type { Session, Harness, SessionStatus } from '../../src/core/session.ts';
export type { BoardCharacters, Character, Pack, Scene, SceneFile, Position } from '../../src/board/types.ts';
import type { Session } from '../../src/core/session.ts';

export type { Page } from '../../src/pager/types.ts';

export interface TailMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  at: string | null;
}

export type { Goal, GoalStatus, Verdict, LastAudit } from '../../src/goals/types.ts';
import type { Goal } from '../../src/goals/types.ts';
/** A goal as the board holds it: the record plus whether its audit is running right now. */
export type GoalView = Goal & { evaluating?: boolean };

export type Conn = 'connecting' | 'live' | 'lost';

export type { FleetHost } from '../../src/fleet/types.ts';

export const keyOf = (s: Pick<Session, 'harness' | 'id'>): string => `${s.harness}:${s.id}`;
