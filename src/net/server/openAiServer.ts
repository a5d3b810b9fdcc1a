/**
 * The embedded OpenAI-compatible endpoint: real HTTP on 127.0.0.1, SSE streaming token by token, server-side
 * tool parsing with the reference parser of the format its model writes (Kimi K2 unless `format` says otherwise).
 * Its model is a script (see scriptedModel.ts) — a simulator for offline replay, demos and tests, not a language
 * model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParserDelta, ToolCallFormat } from '../../core/formats/toolCallFormat.ts';
import { DEFAULT_FORMAT, getFormat } from '../../core/formats/registry.ts';
import type { Tokenizer } from '../../core/tokens/token.ts';
import type { ChatRequest } from '../../core/trace/record.ts';
import { requestFromPrompt } from './promptRequest.ts';
import { ScriptedModel, type ScriptOptions } from './scriptedModel.ts';
import { simulatedTokens } from './serverTokens.ts';
import { engineConstraint, type OutputConstraint } from '../../core/guided/guidedConstraint.ts';
import { nodeServices } from '../../io/nodeServices.ts';
import type { VllmGeneration } from '../../core/formats/engineRun.ts';
import { browserRefusal, clientTimeouts, type ClientLimits } from './httpLimits.ts';
import { chatRequestProblem, completionsRequestProblem } from './requestShape.ts';

export type { OutputConstraint };

export interface ServerOptions extends Omit<ScriptOptions, 'format'>, ClientLimits {
  host?: string;
  port?: number;
  model?: string;
  /**
   * The tool-call format the simulated model writes and the server parses (a registered name; Kimi K2 by default):
   * its answers, its guided decoding and the tool calls it returns are that format's.
   */
  format?: string;
  /** Delay between streamed tokens, to make timings visible. */
  tokenDelayMs?: number;
  /** Guided decoding (default: xgrammar over the request's structural tag, src/core/guided); null: ignore it. */
  constraint?: OutputConstraint | null;
  /** Honour the `x-toolscope-fault` request header (tests of client error paths). */
  allowFaults?: boolean;
  /** Answer the first `count` requests with this status (429 carries Retry-After: 1), then work normally. */
  failFirst?: { status: 429 | 500 | 503; count: number };
  /**
   * Parse chat answers the way this vLLM generation's Kimi K2 tool parser does (its bugs included) instead of
   * with the reference parser, to reproduce what a client of that vLLM saw.
   */
  vllmProfile?: VllmGeneration;
  /** Called once per request with what was answered (for logs and tests). */
  onRequest?: (info: { path: string; kind: string; guided: boolean }) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The model name the server reports (`toolscope-sim-<format>` unless one was given). */
  model: string;
  close(): Promise<void>;
}

/** Largest request body accepted: above it, 413. */
export const MAX_REQUEST_BODY = 32 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new HttpError(413, `request body over ${MAX_REQUEST_BODY} bytes (the limit of this endpoint)`);
    if (Number(req.headers['content-length']) > MAX_REQUEST_BODY) {
      // The rest is read and dropped (bounded by the request timeout) so the client gets the 413, not a reset.
      req.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BODY) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type = 'invalid_request_error',
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type, param: null, code: status } }, headers);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `stream_options.include_usage`: a last chunk with no choices and the token counts, as vLLM and OpenAI send. */
function wantsUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options;
  return typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true;
}

function usageOf(completionTokens: number): Record<string, number> {
  return { prompt_tokens: 0, completion_tokens: completionTokens, total_tokens: completionTokens };
}

function toChunkDelta(d: ParserDelta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.content !== undefined) out.content = d.content;
  if (d.reasoning_content !== undefined) out.reasoning_content = d.reasoning_content;
  if (d.tool_calls) {
    out.tool_calls = d.tool_calls.map((tc) => ({
      index: tc.index,
      ...(tc.id !== undefined ? { id: tc.id, type: 'function' } : {}),
      function: { ...(tc.function.name !== undefined ? { name: tc.function.name } : {}), arguments: tc.function.arguments ?? '' },
    }));
  }
  return out;
}

const chunkOf = (d: ParserDelta | null): Record<string, unknown> | null => (d ? toChunkDelta(d) : null);

/** One more than the highest tool-call index in a chunk delta (0 without calls). */
function callCount(delta: Record<string, unknown> | null): number {
  const calls = delta?.tool_calls;
  if (!Array.isArray(calls)) return 0;
  return calls.reduce((n: number, tc: { index?: unknown }) => Math.max(n, typeof tc.index === 'number' ? tc.index + 1 : 0), 0);
}

export class OpenAiServer {
  private readonly model: ScriptedModel;
  private readonly modelName: string;
  private readonly format: ToolCallFormat;
  /** Each format's approximate tokenizer, built once (a scripted record may be written in another format). */
  private readonly tokenizers = new Map<ToolCallFormat, Tokenizer>();
  private readonly constraint: OutputConstraint | null;
  private server: Server | null = null;
  private counter = 0;
  private failed = 0;

  constructor(private readonly options: ServerOptions = {}) {
    this.format = getFormat(options.format ?? DEFAULT_FORMAT);
    if (options.vllmProfile && !this.format.engineProfiles)
      throw new Error(`vLLM parser profiles replay Kimi K2's parser generations; the ${this.format.displayName} format has none`);
    this.model = new ScriptedModel({ ...options, format: this.format });
    this.modelName = options.model ?? `toolscope-sim-${this.format.name.replace(/_/gu, '-')}`;
    this.constraint = options.constraint === undefined ? engineConstraint(nodeServices().grammarEngine) : options.constraint;
  }

  private tokenizerFor(format: ToolCallFormat): Tokenizer {
    let tokenizer = this.tokenizers.get(format);
    if (!tokenizer) {
      tokenizer = format.tokenizer.approximate();
      this.tokenizers.set(format, tokenizer);
    }
    return tokenizer;
  }

  async listen(): Promise<RunningServer> {
    const server = createServer(clientTimeouts(this.options), (req, res) => {
      this.route(req, res).catch((err: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (err instanceof HttpError) sendError(res, err.status, err.message, err.type, err.status === 413 ? { connection: 'close' } : {});
        else sendError(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`, 'server_error');
      });
    });
    this.server = server;
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    return {
      url: `http://${host}:${port}/v1`,
      port,
      model: this.modelName,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A web page must not drive the endpoint (DNS rebinding), as for the recording proxy.
    const refusal = browserRefusal(req, this.options.host ?? '127.0.0.1', 'endpoint');
    if (refusal) {
      req.resume();
      sendError(res, 403, refusal, 'permission_error');
      return;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      sendJson(res, 200, { object: 'list', data: [{ id: this.modelName, object: 'model', created: 0, owned_by: 'toolscope' }] });
      return;
    }
    if (path !== '/v1/chat/completions' && path !== '/v1/completions') {
      sendError(
        res,
        404,
        `no route ${req.method} ${path}; this server has /v1/models, /v1/chat/completions and /v1/completions`,
        'not_found',
      );
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, 405, `${path} takes POST`);
      return;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(await readBody(req));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the body is not a JSON object');
      body = parsed as Record<string, unknown>;
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(400, `invalid JSON body: ${err instanceof Error ? err.message : String(err)}`);
    }
    const problem = path === '/v1/chat/completions' ? chatRequestProblem(body) : completionsRequestProblem(body);
    if (problem) throw new HttpError(400, problem);
    if (this.options.failFirst && this.failed < this.options.failFirst.count) {
      this.failed++;
      const { status } = this.options.failFirst;
      return sendError(
        res,
        status,
        `simulated failure ${this.failed} of ${this.options.failFirst.count}`,
        status === 429 ? 'rate_limit_error' : 'server_error',
        status === 429 ? { 'retry-after': '1' } : {},
      );
    }
    const fault = this.options.allowFaults ? String(req.headers['x-toolscope-fault'] ?? '') : '';
    if (fault === '500') return sendError(res, 500, 'simulated server failure', 'server_error');
    if (fault === '429') return sendError(res, 429, 'simulated rate limit', 'rate_limit_error', { 'retry-after': '1' });
    if (path === '/v1/chat/completions') await this.chat(body, res, fault);
    else await this.completions(body, res, fault);
  }

  private async generate(
    request: ChatRequest,
    path: string,
    prompt?: string,
  ): Promise<{ text: string; guided: boolean; kind: string; format: ToolCallFormat }> {
    const scripted = prompt === undefined ? this.model.complete(request) : this.model.completePrompt(prompt, request);
    const guided = Boolean(this.constraint?.applies(request));
    let text = scripted.text;
    if (guided && this.constraint) {
      try {
        text = await this.constraint.constrain(request, scripted.text, scripted.format.name);
      } catch (err) {
        // A tag or schema the grammar engine refuses: vLLM answers 400 for the same.
        throw new HttpError(400, `guided decoding: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.options.onRequest?.({ path, kind: scripted.kind, guided });
    return { text, guided, kind: scripted.kind, format: scripted.format };
  }

  private async chat(body: Record<string, unknown>, res: ServerResponse, fault: string): Promise<void> {
    const request = body as ChatRequest;
    const { text, format } = await this.generate(request, '/v1/chat/completions');
    const maxTokens =
      typeof body.max_tokens === 'number'
        ? body.max_tokens
        : typeof body.max_completion_tokens === 'number'
          ? body.max_completion_tokens
          : Infinity;
    const all = simulatedTokens(text, this.tokenizerFor(format));
    const tokens = all.slice(0, maxTokens);
    const id = `chatcmpl-toolscope-${++this.counter}`;
    const created = Math.floor(Date.now() / 1000);
    const parser = format.createParser({ tools: request.tools ?? [] });
    const vllm =
      this.options.vllmProfile && format.engineProfiles
        ? format.engineProfiles.serverParser(this.options.vllmProfile, tokens, tokens.map((t) => t.text).join(''))
        : null;
    const wantLogprobs = body.logprobs === true;

    if (body.stream !== true) {
      if (!vllm) {
        for (const t of tokens) parser.push(t.text);
        parser.finish();
      }
      const r = vllm ? vllm.message() : parser.result();
      const finish = tokens.length < all.length ? 'length' : r.calls.length ? 'tool_calls' : 'stop';
      const message: Record<string, unknown> = { role: 'assistant', content: r.content };
      if (r.reasoning) message.reasoning_content = r.reasoning;
      if (r.calls.length)
        message.tool_calls = r.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: this.modelName,
        choices: [
          {
            index: 0,
            message,
            finish_reason: finish,
            logprobs: wantLogprobs
              ? { content: tokens.map((t) => ({ token: t.text, logprob: 0, bytes: [...Buffer.from(t.text)], top_logprobs: [] })) }
              : null,
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: tokens.length, total_tokens: tokens.length },
      });
      return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (choice: Record<string, unknown>) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: this.modelName, choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }] })}\n\n`,
      );
    send({ delta: { role: 'assistant', content: '' } });
    let calls = 0;
    for (const [i, t] of tokens.entries()) {
      if (res.destroyed) return;
      if (fault === 'close-mid-stream' && i === Math.floor(tokens.length / 2)) {
        // Let what was written reach the client first, as a real crash mid-stream would.
        await sleep(20);
        res.destroy();
        return;
      }
      if (fault === 'invalid-chunk' && i === Math.floor(tokens.length / 2)) res.write('data: {"id": "broken", "choices": [\n\n');
      const d = vllm ? vllm.push(i) : chunkOf(parser.push(t.text));
      if (this.options.tokenDelayMs || fault === 'slow') await sleep(fault === 'slow' ? 200 : (this.options.tokenDelayMs ?? 0));
      // vLLM streams a chunk per token, carrying the token's logprob even when the parser emitted nothing.
      const logprobs = wantLogprobs
        ? { content: [{ token: t.text, logprob: 0, bytes: [...Buffer.from(t.text)], top_logprobs: [] }] }
        : null;
      if (!d && !logprobs) continue;
      calls = Math.max(calls, callCount(d));
      send({ delta: d ?? {}, logprobs });
    }
    const last = vllm ? vllm.finish() : chunkOf(parser.finish());
    if (last) {
      calls = Math.max(calls, callCount(last));
      send({ delta: last });
    }
    send({ delta: {}, finish_reason: tokens.length < all.length ? 'length' : calls ? 'tool_calls' : 'stop' });
    if (wantsUsage(body))
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: this.modelName, choices: [], usage: usageOf(tokens.length) })}\n\n`,
      );
    res.write('data: [DONE]\n\n');
    res.end();
  }

  private async completions(body: Record<string, unknown>, res: ServerResponse, fault: string): Promise<void> {
    if (typeof body.prompt !== 'string') throw new HttpError(400, '"prompt" must be a string (one prompt per request)');
    const request = requestFromPrompt(body.prompt);
    const { text, format } = await this.generate(
      {
        ...request,
        ...(body.structured_outputs || body.response_format
          ? { structured_outputs: body.structured_outputs, response_format: body.response_format }
          : {}),
      },
      '/v1/completions',
      body.prompt,
    );
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : Infinity;
    const all = simulatedTokens(text, this.tokenizerFor(format));
    const tokens = all.slice(0, maxTokens);
    const asIds = body.return_tokens_as_token_ids === true;
    const wantLogprobs = typeof body.logprobs === 'number' || body.logprobs === true;
    const tokenName = (t: { text: string; id: number }) => (asIds ? `token_id:${t.id}` : t.text);
    const id = `cmpl-toolscope-${++this.counter}`;
    const created = Math.floor(Date.now() / 1000);
    const finish = tokens.length < all.length ? 'length' : 'stop';
    const logprobsFor = (list: typeof tokens, offset: number) => ({
      tokens: list.map(tokenName),
      token_logprobs: list.map(() => 0),
      top_logprobs: list.map((t) => ({ [tokenName(t)]: 0 })),
      text_offset: list.map((t) => offset + t.charStart),
    });
    if (body.stream !== true) {
      sendJson(res, 200, {
        id,
        object: 'text_completion',
        created,
        model: this.modelName,
        choices: [
          {
            index: 0,
            text: tokens.map((t) => t.text).join(''),
            logprobs: wantLogprobs ? logprobsFor(tokens, 0) : null,
            finish_reason: finish,
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: tokens.length, total_tokens: tokens.length },
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [i, t] of tokens.entries()) {
      if (res.destroyed) return;
      if (fault === 'close-mid-stream' && i === Math.floor(tokens.length / 2)) {
        res.destroy();
        return;
      }
      if (this.options.tokenDelayMs) await sleep(this.options.tokenDelayMs);
      res.write(
        `data: ${JSON.stringify({ id, object: 'text_completion', created, model: this.modelName, choices: [{ index: 0, text: t.text, logprobs: wantLogprobs ? logprobsFor([t], t.charStart) : null, finish_reason: i === tokens.length - 1 ? finish : null }] })}\n\n`,
      );
    }
    if (wantsUsage(body))
      res.write(
        `data: ${JSON.stringify({ id, object: 'text_completion', created, model: this.modelName, choices: [], usage: usageOf(tokens.length) })}\n\n`,
      );
    res.write('data: [DONE]\n\n');
    res.end();
  }
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  return new OpenAiServer(options).listen();
}
