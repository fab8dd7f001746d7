/**
 * The fake model server: one node:http server on 127.0.0.1 speaking Anthropic Messages, OpenAI
 * Chat Completions, OpenAI Responses and Google's Generative Language API (Gemini), scripted by a reply queue and request handlers. Only the
 * model is fake; the CLIs under test are real.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import { anthropicError, anthropicMessage, anthropicStream } from './anthropic.ts';
import { chatCompletion, chatCompletionStream, openAiError } from './chat-completions.ts';
import { requestedModel } from './inspect.ts';
import { readBody, toRecord } from './request.ts';
import { responsesReply, responsesStream } from './responses.ts';
import { DEFAULT_SIDE_CALL_REPLIES, detectSideCall, geminiResponseSchema } from './side-calls.ts';
import { fillSchema, geminiError, geminiGenerate, geminiStream } from './gemini.ts';
import { createIdSource, sendJson, sleep } from './stream.ts';
import type { ReplyContext } from './stream.ts';
import type { FakeRequest, Reply, RequestHandler, SideCallKind } from './types.ts';
import { DEFAULT_USAGE } from './usage.ts';

export interface FakeModelOptions {
  /** Port on 127.0.0.1. Default: 0 (any free port). */
  port?: number;
  /** Append every request (with its chosen reply) to this file as one JSON line. Default: none. */
  logFile?: string;
  /** Text of the default reply when no handler or queued reply applies. Default: `hi from fake model`. */
  defaultText?: string;
  /** Model ids listed by `GET /v1/models`. Default: `fake-model`, `claude-fake-1`. */
  models?: string[];
  /**
   * Send a `request-id` header with Anthropic replies, as the real API does (Claude Code records it as
   * the transcript's `requestId`, which usage tools key messages by). Default: false.
   */
  requestIds?: boolean;
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>` (no `/v1`; append it for OpenAI-style base URLs). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (side calls and unknown paths included). */
  readonly requests: FakeRequest[];
  /** Queues replies for the next model calls (FIFO), after handlers decline. */
  enqueue(...replies: Reply[]): void;
  /** Adds a handler consulted before the queue; first non-undefined reply wins. Returns a remover. */
  onRequest(handler: RequestHandler): () => void;
  /** Overrides the answer text of one kind of side call. */
  setSideCallReply(kind: SideCallKind, text: string): void;
  /** Number of queued replies not yet used. */
  pending(): number;
  /** Resolves with the first recorded request (past or future) matching `match`; rejects after `timeoutMs`. */
  waitForRequest(match: (req: FakeRequest) => boolean, timeoutMs: number): Promise<FakeRequest>;
  /** Stops listening, aborts slow replies and destroys sockets. Idempotent. */
  close(): Promise<void>;
}

const MODEL_PROTOCOLS = new Set(['anthropic-messages', 'chat-completions', 'responses', 'gemini']);

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const requests: FakeRequest[] = [];
  const queue: Reply[] = [];
  const handlers: RequestHandler[] = [];
  const sideReplies: Record<SideCallKind, string> = { ...DEFAULT_SIDE_CALL_REPLIES };
  const waiters = new Set<(req: FakeRequest) => void>();
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  const id = createIdSource();
  const models = options.models ?? ['fake-model', 'claude-fake-1'];

  const choose = (req: FakeRequest): Reply => {
    const side = detectSideCall(req);
    if (side !== undefined) {
      req.sideCall = side;
      if (side === 'gemini-json' && sideReplies[side] === '') return { text: JSON.stringify(fillSchema(geminiResponseSchema(req))) };
      return { text: sideReplies[side] };
    }
    for (const handler of handlers) {
      const reply = handler(req);
      if (reply !== undefined) return reply;
    }
    return queue.shift() ?? { text: options.defaultText ?? 'hi from fake model' };
  };

  const respond = async (req: FakeRequest, ctx: ReplyContext): Promise<void> => {
    const reply = req.reply;
    if (req.protocol === 'models') {
      const data = models.map((m) => ({ id: m, object: 'model', type: 'model', created: 0, created_at: '1970-01-01T00:00:00Z', owned_by: 'fake', display_name: m }));
      // Gemini's list shape (`models: [{ name: 'models/<id>' }]`) rides along; the others ignore the key.
      const gemini = models.map((m) => ({ name: `models/${m}`, displayName: m, supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] }));
      return sendJson(ctx, 200, { object: 'list', data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null, models: gemini });
    }
    if (req.protocol === 'anthropic-count-tokens') return sendJson(ctx, 200, { input_tokens: DEFAULT_USAGE.input });
    if (req.protocol === 'gemini-count-tokens') return sendJson(ctx, 200, { totalTokens: DEFAULT_USAGE.input });
    if (reply === undefined) return sendJson(ctx, 404, { error: { type: 'not_found', message: `fake model: no route ${req.method} ${req.path}` } });
    const model = requestedModel(req);
    if (reply.error) {
      if (!(await sleep(reply.delayMs ?? 0, ctx.signal))) return;
      const { status, message } = reply.error;
      if (req.protocol === 'gemini') return geminiError(ctx, status, message);
      return req.protocol === 'anthropic-messages' ? anthropicError(ctx, status, message) : openAiError(ctx, status, message);
    }
    if (req.protocol === 'gemini') return req.stream ? geminiStream(ctx, model, reply) : geminiGenerate(ctx, model, reply);
    if (req.protocol === 'anthropic-messages') {
      if (options.requestIds) ctx.res.setHeader('request-id', ctx.id('req_fake'));
      return req.stream ? anthropicStream(ctx, model, reply) : anthropicMessage(ctx, model, reply);
    }
    if (req.protocol === 'chat-completions') return req.stream ? chatCompletionStream(ctx, model, reply) : chatCompletion(ctx, model, reply);
    return req.stream ? responsesStream(ctx, model, reply) : responsesReply(ctx, model, reply);
  };

  const server = http.createServer((httpReq, res) => {
    const abort = new AbortController();
    // 'close' on the response fires on finish too; only an unfinished response means the client left.
    res.on('close', () => abort.abort());
    const signal = AbortSignal.any([abort.signal, closing.signal]);
    readBody(httpReq)
      .then(async (body) => {
        const record = toRecord(httpReq, requests.length + 1, body);
        // The reply is chosen synchronously at arrival so waiters and the log see it before a slow stream ends.
        if (MODEL_PROTOCOLS.has(record.protocol)) record.reply = choose(record);
        requests.push(record);
        if (options.logFile) fs.appendFileSync(options.logFile, JSON.stringify(record) + '\n');
        for (const waiter of [...waiters]) waiter(record);
        await respond(record, { res, signal, id });
      })
      .catch((e: unknown) => {
        // A fake must never hide its own bug as a client problem: answer 500 and say why.
        if (!res.headersSent && !res.destroyed) sendJson({ res, signal, id }, 500, { error: { type: 'fake_model_bug', message: String(e) } });
        else res.destroy();
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    onRequest(handler) {
      handlers.push(handler);
      return () => {
        const i = handlers.indexOf(handler);
        if (i >= 0) handlers.splice(i, 1);
      };
    },
    setSideCallReply: (kind, text) => void (sideReplies[kind] = text),
    pending: () => queue.length,
    waitForRequest(match, timeoutMs) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`fake model: no matching request within ${timeoutMs} ms (${requests.length} received)`));
        }, timeoutMs);
        const waiter = (req: FakeRequest): void => {
          if (!match(req)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(req);
        };
        waiters.add(waiter);
      });
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
