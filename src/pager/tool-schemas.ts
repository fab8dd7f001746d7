/**
 * The pager tools' arguments and results, once, as zod shapes: the MCP tools register them, and the
 * build turns them into JSON Schema (`z.toJSONSchema`) for the pi/omp extension, which has no zod.
 * Loaded only where zod may load (the MCP endpoint, on first use; the build).
 */
import { z } from 'zod';
import { LIMITS } from './validate.ts';
import { ASK_TEXT, AWAIT_TEXT, CANCEL_TEXT, NOTIFY_TEXT } from './tool-texts.ts';
import { NOTICE_LEVELS, URGENCIES } from './types.ts';

const outcome = {
  status: z.enum(['answered', 'pending', 'cancelled', 'expired', 'dismissed']),
  pageId: z.string(),
  answer: z.string().optional().describe("The operator's answer (free text, or the text of the chosen option)."),
  choice: z.number().int().nullable().optional().describe('0-based index of the chosen option, null for free text.'),
  instruction: z.string().describe('What to do next.'),
};

export const PAGER_TOOLS = {
  ask_operator: {
    title: 'Ask the operator',
    description: ASK_TEXT,
    input: {
      question: z.string().min(1).max(LIMITS.question).describe('The question, in plain text, self-contained (the operator may not see your conversation).'),
      choices: z.array(z.string().min(1).max(LIMITS.choice)).min(2).max(LIMITS.choices).optional().describe('Options to pick from, when the answer is one of a few.'),
      urgency: z.enum(URGENCIES).optional().describe('How soon you need it. Default: normal.'),
      context: z.string().max(LIMITS.context).optional().describe('Background the operator needs to answer (what you tried, what is at stake).'),
    },
    output: outcome,
  },
  await_answer: {
    title: 'Wait for the operator’s answer',
    description: AWAIT_TEXT,
    input: {
      pageId: z.string().max(64).describe('The pageId returned by ask_operator.'),
      waitSeconds: z.number().int().min(0).max(600).optional().describe('How long to wait at most (capped by the daemon). Default: the daemon’s bound (45 s).'),
    },
    output: outcome,
  },
  notify_operator: {
    title: 'Notify the operator',
    description: NOTIFY_TEXT,
    input: {
      message: z.string().min(1).max(LIMITS.question).describe('What happened, in plain text.'),
      level: z.enum(NOTICE_LEVELS).describe('info, success, warning or error.'),
    },
    output: { status: z.literal('sent'), pageId: z.string() },
  },
  cancel_page: {
    title: 'Cancel a question',
    description: CANCEL_TEXT,
    input: { pageId: z.string().max(64).describe('The pageId returned by ask_operator.') },
    output: { status: z.literal('cancelled'), pageId: z.string() },
  },
} as const;

export type PagerToolName = keyof typeof PAGER_TOOLS;

/** One tool as an extension registers it: name, label, description and a JSON Schema of its arguments. */
export interface PagerToolSpec {
  name: PagerToolName;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The four tools as JSON Schema, for harnesses that take plain JSON-Schema tool parameters (pi, omp). */
export function pagerToolSpecs(): PagerToolSpec[] {
  return (Object.keys(PAGER_TOOLS) as PagerToolName[]).map((name) => {
    const t = PAGER_TOOLS[name];
    const parameters = z.toJSONSchema(z.object(t.input)) as Record<string, unknown>;
    delete parameters.$schema;
    return { name, label: t.title, description: t.description, parameters };
  });
}
