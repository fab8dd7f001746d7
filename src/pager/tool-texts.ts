/** What the pager's tools say to the model: shared by the MCP tools and the pi/omp extension. */
export const ASK_TEXT = `Ask the human operator who supervises you a question, and wait for the answer.
Use it when you are blocked on something only a person can decide or provide: an approval, a secret, a choice between options, an unclear requirement. Keep working on anything else that does not depend on the answer.
The question is saved before anything else, so it is never lost. This call waits a bounded time (about 45 s). If the operator has not answered by then it returns {"status":"pending","pageId":…}: then call await_answer with that pageId (again and again while it stays pending) — do not ask the same question twice.
Offer "choices" when the answer is one of a few options; the result then has the chosen text in "answer" and its 0-based index in "choice".`;

export const AWAIT_TEXT = `Wait for the operator's answer to a question you asked with ask_operator (pass its pageId).
Returns as soon as an answer exists — including an answer given while nobody was waiting, or before a restart. If there is still no answer after the bounded wait it returns status "pending": call await_answer again. Status "cancelled", "expired" or "dismissed" means no answer will come; decide without it.`;

export const NOTIFY_TEXT = `Tell the human operator something that needs no answer: progress worth knowing, a finished task, a warning, an error. Returns at once. Use ask_operator instead when you need a reply.`;

export const CANCEL_TEXT = `Withdraw a question you asked with ask_operator that no longer needs an answer (you found it out yourself, or the task changed), so the operator is not bothered with it.`;

/** What a wait result tells the model to do next; `{pageId}` and `{status}` are filled in. */
export const NEXT_STEP = {
  answered: 'The operator answered; continue with this answer.',
  pending: 'No answer yet. Call await_answer with {"pageId":"{pageId}"} to keep waiting; do not ask again.',
  closed: 'The page was {status}; no answer will come. Continue without it.',
} as const;
