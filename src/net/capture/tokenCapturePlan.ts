/**
 * `--capture-tokens`: what to ask the upstream for so the record gets the raw tokens, and how to take it out of what
 * the client receives so its bytes are the ones it would have had without the proxy asking.
 *
 * - `/v1/completions`: `logprobs: 1`, and on vLLM `return_tokens_as_token_ids: true` (every token as `token_id:N`,
 *   special tokens included: the ground truth). The client gets `"logprobs":null` back, as without them.
 * - `/v1/chat/completions`: `logprobs: true`. vLLM's streamed chat sends no chunk for tokens its tool or reasoning
 *   parser holds back, so their logprobs never arrive; on vLLM the proxy also asks for the final usage chunk
 *   (`stream_options.include_usage`) to count the tokens generated, and drops that chunk from the client's stream.
 *   A stream whose logprobs do not add up to that count is recorded as incomplete, never as the raw completion.
 *   Chunks the engine sent only to carry a logprob (an empty delta) are dropped too.
 *
 * When the client asked for logprobs itself they are left as they are: it gets what it asked for, and the record
 * keeps the tokens it got (still checked against the usage count on vLLM).
 */
import type { Engine } from '../replay/endpoint.ts';
import { applyEdits, JsonScanError, nullChoiceFieldEdits } from './jsonValueSpans.ts';

export type CaptureRoute = 'chat' | 'completions';

export interface TokenCapturePlan {
  route: CaptureRoute;
  /** Request fields the proxy added upstream (recorded in the record's meta). */
  added: Record<string, unknown>;
  /** Choice fields set back to `null` in what the client receives. */
  nullFields: string[];
  /** Drop the usage-only last chunk of a stream (the proxy asked for it, the client did not). */
  dropUsageChunk: boolean;
}

type Body = Record<string, unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Null when tokens cannot be captured for this request without changing what the client gets. */
export function planTokenCapture(route: CaptureRoute, body: Body, engine: Engine): TokenCapturePlan | null {
  const plan: TokenCapturePlan = { route, added: {}, nullFields: [], dropUsageChunk: false };
  if (route === 'completions') {
    // `echo` puts the prompt's tokens first: they are not the completion.
    if (body.echo === true) return null;
    if (body.logprobs !== undefined && body.logprobs !== null && body.logprobs !== false) return plan;
    plan.added.logprobs = 1;
    if (engine === 'vllm' && body.return_tokens_as_token_ids === undefined) plan.added.return_tokens_as_token_ids = true;
    plan.nullFields.push('logprobs');
    return plan;
  }
  if (body.logprobs !== true) {
    plan.added.logprobs = true;
    plan.nullFields.push('logprobs');
  }
  const options = isObject(body.stream_options) ? body.stream_options : {};
  // Only vLLM is known to add nothing to the other chunks when asked for usage (OpenAI adds `"usage":null` to each).
  if (engine === 'vllm' && body.stream === true && options.include_usage !== true) {
    plan.added.stream_options = { ...options, include_usage: true };
    plan.dropUsageChunk = true;
  }
  return plan;
}

/** The request body to send upstream: the client's with the plan's fields added. */
export function upstreamBody(body: Body, plan: TokenCapturePlan): Body {
  return { ...body, ...plan.added };
}

export interface ClientView {
  /** The payload to forward (byte-identical where nothing was taken out), or null to drop the event. */
  text: string | null;
  /** The payload as the client sees it, parsed (what the record keeps). */
  value: unknown;
  /** Something the proxy added was taken out. */
  changed: boolean;
}

function emptyDelta(choice: unknown): boolean {
  if (!isObject(choice)) return false;
  const delta = choice.delta;
  return isObject(delta) && Object.keys(delta).length === 0 && (choice.finish_reason === null || choice.finish_reason === undefined);
}

/**
 * What the client receives for one payload from the upstream (a stream chunk's data, or a whole body), given the
 * parsed payload. Text that cannot be scanned as JSON is forwarded untouched.
 */
export function clientView(text: string, parsed: unknown, plan: TokenCapturePlan | null, streamed: boolean): ClientView {
  if (!plan || !isObject(parsed)) return { text, value: parsed, changed: false };
  const choices = Array.isArray(parsed.choices) ? parsed.choices : null;
  if (streamed && plan.dropUsageChunk && choices?.length === 0 && isObject(parsed.usage))
    return { text: null, value: parsed, changed: true };
  if (!plan.nullFields.length || !choices) return { text, value: parsed, changed: false };
  let edited: string;
  try {
    const edits = nullChoiceFieldEdits(text, plan.nullFields);
    if (!edits.length) return { text, value: parsed, changed: false };
    edited = applyEdits(text, edits);
  } catch (err) {
    if (err instanceof JsonScanError) return { text, value: parsed, changed: false };
    throw err;
  }
  const value = {
    ...parsed,
    choices: choices.map((c: unknown) => {
      if (!isObject(c)) return c;
      const out = { ...c };
      for (const key of plan.nullFields) if (key in out && out[key] !== null) out[key] = null;
      return out;
    }),
  };
  // A chunk that carried nothing but a logprob exists only because the proxy asked for logprobs.
  const logprobOnly =
    streamed &&
    plan.route === 'chat' &&
    choices.length > 0 &&
    value.choices.every(emptyDelta) &&
    (parsed.usage === undefined || parsed.usage === null);
  return { text: logprobOnly ? null : edited, value, changed: true };
}
