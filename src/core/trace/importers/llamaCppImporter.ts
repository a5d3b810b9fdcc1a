/**
 * llama.cpp server: its own `/completion` endpoint (`content`, `tokens`, `stop_type`, `completion_probabilities`,
 * `timings`), whole or streamed as SSE chunks ending with `"stop": true`, and the `__verbose` object its
 * OpenAI-compatible endpoints add when the server runs with `--verbose` (the completion result behind the
 * response: its `content` is the raw completion).
 * - `/completion` becomes the record's raw `completion`: `content` as the text, each of `completion_probabilities`
 *   a recorded token (`id`, `token` → `text`, `logprob`, `top_logprobs` → `top`; with `post_sampling_probs` the
 *   `prob` values are turned into logprobs, `ln(prob)`); without probabilities, `tokens` (ids) become id-only
 *   tokens. `stop_type` is the finish reason (`eos`, `word` → `stop`; `limit` → `length`). The processed `prompt`
 *   becomes the record's `prompt`; `model`, `stop_type`, `stopping_word`, `timings`, `tokens_cached`,
 *   `tokens_evaluated`, `tokens_predicted` and `truncated` go to `meta`.
 * - `__verbose.content` on a chat response becomes the record's `completion` next to the `response`, so a call
 *   that is in the raw text but missing from the parsed message is a `dropped-call`.
 */
import type { Completion, LoadedRecord, RecordMeta, RecordedToken, TraceRecord } from '../record.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

const META_KEYS = ['stop_type', 'stopping_word', 'timings', 'tokens_cached', 'tokens_evaluated', 'tokens_predicted', 'truncated'] as const;

/** A `/completion` response (whole, or a stream chunk: `content` and a boolean `stop`). */
export function isLlamaCompletionShape(value: UnknownObject): boolean {
  if (typeof value.content !== 'string' || 'choices' in value || 'role' in value) return false;
  return 'stop_type' in value || 'completion_probabilities' in value || 'generation_settings' in value || typeof value.stop === 'boolean';
}

export function llamaFinishReason(stopType: unknown): string | null {
  if (stopType === 'eos' || stopType === 'word') return 'stop';
  if (stopType === 'limit') return 'length';
  return null;
}

function logprobOf(entry: UnknownObject): number | undefined {
  if (typeof entry.logprob === 'number') return entry.logprob;
  if (typeof entry.prob === 'number') return entry.prob > 0 ? Math.log(entry.prob) : -Infinity;
  return undefined;
}

/** The recorded tokens of `completion_probabilities` (or of `tokens` ids), or why they cannot be read. */
export function llamaTokens(value: UnknownObject, path = ''): RecordedToken[] | string | undefined {
  const probs = value.completion_probabilities;
  if (Array.isArray(probs)) {
    const out: RecordedToken[] = [];
    for (let i = 0; i < probs.length; i++) {
      const p: unknown = probs[i];
      if (!isObject(p)) return `${path}completion_probabilities[${i}] must be an object, got ${describeJson(p)}`;
      if (typeof p.token !== 'string') return `${path}completion_probabilities[${i}].token must be a string, got ${describeJson(p.token)}`;
      const token: RecordedToken = { text: p.token };
      if (typeof p.id === 'number' && Number.isInteger(p.id)) token.id = p.id;
      const lp = logprobOf(p);
      if (lp !== undefined && Number.isFinite(lp)) token.logprob = lp;
      const tops = Array.isArray(p.top_logprobs) ? p.top_logprobs : Array.isArray(p.top_probs) ? p.top_probs : [];
      const top: NonNullable<RecordedToken['top']> = [];
      for (const t of tops) {
        if (!isObject(t) || typeof t.token !== 'string') continue;
        const tlp = logprobOf(t);
        if (tlp === undefined || !Number.isFinite(tlp)) continue;
        top.push({ text: t.token, logprob: tlp, ...(typeof t.id === 'number' ? { id: t.id } : {}) });
      }
      if (top.length > 0) token.top = top;
      out.push(token);
    }
    return out;
  }
  if (probs !== undefined && probs !== null) return `${path}completion_probabilities must be an array, got ${describeJson(probs)}`;
  if (Array.isArray(value.tokens) && value.tokens.length > 0 && value.tokens.every((t) => typeof t === 'number' && Number.isInteger(t))) {
    return (value.tokens as number[]).map((id) => ({ id, text: '' }));
  }
  return undefined;
}

export function llamaMeta(value: UnknownObject): RecordMeta {
  const meta: RecordMeta = { source: 'llama.cpp', endpoint: '/completion' };
  if (typeof value.model === 'string') meta.model = value.model;
  for (const key of META_KEYS) if (value[key] !== undefined) meta[key] = value[key];
  return meta;
}

/** The completion a `/completion` result (or a `__verbose` object) holds, or why it cannot be read. */
export function llamaCompletion(value: UnknownObject, path = ''): Completion | string {
  const tokens = llamaTokens(value, path);
  if (typeof tokens === 'string') return tokens;
  const completion: Completion = { text: value.content as string, finish_reason: llamaFinishReason(value.stop_type) };
  if (tokens !== undefined && tokens.length > 0) completion.tokens = tokens;
  return completion;
}

export function importLlamaCompletion(value: UnknownObject, line: number): ImportResult {
  const completion = llamaCompletion(value);
  if (typeof completion === 'string') return importError(line, `llama.cpp /completion response: ${completion}`);
  const record: TraceRecord = { toolscope: 1, id: `line-${line}`, completion, meta: llamaMeta(value) };
  if (typeof value.prompt === 'string') record.prompt = value.prompt;
  return importedRecord({ record, line, lastLine: line, source: 'llama.cpp' });
}

/** A chat record from llama.cpp with `__verbose`: the raw completion beside the response, the timings in meta. */
export function withLlamaVerbose(loaded: LoadedRecord, verbose: unknown, timings: unknown): LoadedRecord | string {
  const record = loaded.record;
  if (timings !== undefined) record.meta = { ...record.meta, timings };
  if (!isObject(verbose) || typeof verbose.content !== 'string') return loaded;
  const completion = llamaCompletion(verbose, '__verbose.');
  if (typeof completion === 'string') return completion;
  // A streamed response's __verbose has no stop_type until the end: keep the response's finish reason then.
  if (completion.finish_reason === null) delete completion.finish_reason;
  record.completion = completion;
  if (typeof verbose.prompt === 'string' && record.prompt === undefined) record.prompt = verbose.prompt;
  record.meta = { ...record.meta, source: 'llama.cpp', ...(typeof verbose.stop_type === 'string' ? { stop_type: verbose.stop_type } : {}) };
  return loaded;
}
