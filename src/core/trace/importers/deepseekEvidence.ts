/**
 * The DeepSeek provider verifier's evidence files (github.com/smg-project/deepseek-provider-verifier,
 * src/deepseek_provider_verifier/evidence.py and runner.py at 120277fb505d046c3ca14d5c4204e13e2bd42b4a):
 * `attempts.jsonl` and `results.jsonl`, each line an envelope `{"previous_hash", "record", "record_hash"}` written by
 * `json.dumps(…, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`, `record_hash` the sha256 of the
 * envelope without it. A record of kind `attempt` is one HTTP attempt (`attempt.request` as sent, the capture's
 * `decoded_json` body or the stream's SSE `events`, `status_code`, `error`): one Toolscope record. The other kinds
 * (`manifest`, `attempt_start` reservations, `result` verdicts, `torn_tail` dispositions) are no model call and are
 * skipped. The line's own hash is checked against its bytes (a line edited after it was written is an error); the
 * chain from line to line is the eval's to check (host/eval/deepseekChain.ts). A stream is kept as its chunks;
 * an attempt whose body the verifier omitted keeps its parsed observation only, and says so in `meta.unchecked`.
 */
import { createHash } from 'node:crypto';
import type { ChatCompletionChunk, ChatMessage, ChatRequest, LoadedRecord, RecordMeta, TraceRecord } from '../record.ts';
import { chatCompletionProblem, chatChunkProblem, messagesProblem } from './chatShapes.ts';
import { isChatCompletionShape } from './chatCompletionImporter.ts';
import { PARSED_ONLY_NOTE, parsedCompletion } from './exportMessages.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';
import type { ReadResult } from './importResult.ts';
import { importResponsesObject, isResponsesObjectShape } from './responsesObject.ts';

export function isDeepseekEnvelopeShape(value: UnknownObject): boolean {
  return isObject(value.record) && typeof value.previous_hash === 'string' && typeof value.record_hash === 'string';
}

const HASH_TAIL = /,"record_hash":"([0-9a-f]{64})"\}\s*$/u;

/**
 * Whether the line's `record_hash` is the sha256 of the envelope without it. The writer's key order puts
 * `record_hash` last, so the hashed text is the line itself with that member cut: no re-serialisation (Python's
 * float spelling) is needed. Null when the line is not in the writer's own spelling (re-indented, keys moved).
 */
export function envelopeHashHolds(text: string): boolean | null {
  const m = HASH_TAIL.exec(text);
  if (!m || !text.startsWith('{"previous_hash":')) return null;
  const hashed = text.slice(0, m.index) + '}';
  return createHash('sha256').update(hashed, 'utf8').digest('hex') === m[1];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One envelope; `lineText` (the line as written) lets its hash be checked. */
export function importDeepseekEnvelope(envelope: UnknownObject, line: number, lineText?: string): ReadResult {
  const error = (message: string): ReadResult => ({
    records: [],
    errors: [{ line, message: `line ${line}: DeepSeek verifier evidence: ${message}` }],
  });
  if (typeof envelope.record_hash !== 'string' || !/^[0-9a-f]{64}$/u.test(envelope.record_hash))
    return error('record_hash is not a sha256 (64 hexadecimal digits)');
  if (lineText !== undefined && envelopeHashHolds(lineText) === false)
    return error('record_hash is not the sha256 of the line without it (the line was changed after it was written)');
  const rec = envelope.record as UnknownObject;
  if (rec.kind !== 'attempt') return { records: [], errors: [] };
  const attempt = rec.attempt;
  if (!isObject(attempt)) return error('an attempt record without its "attempt" object');
  const caseId = text(attempt.case_id) ?? '?';
  const endpoint = text(attempt.endpoint) ?? '?';
  const id = `${endpoint}:${caseId}#${String(attempt.attempt_number ?? '?')}`;
  const meta: RecordMeta = { source: 'deepseek-verifier', case_id: caseId, endpoint_name: endpoint };
  for (const key of ['prompt_id', 'step', 'repetition', 'retry', 'attempt_number', 'status_code', 'evidence_hash', 'timings'] as const)
    if (attempt[key] !== undefined && attempt[key] !== null) meta[key] = attempt[key];
  meta.record_hash = envelope.record_hash;
  meta.previous_hash = envelope.previous_hash;

  const request = attempt.request;
  const capture = isObject(attempt.capture) ? attempt.capture : {};
  const body = capture.decoded_json;
  // The Responses protocol: the body is a Responses object, read by its own importer.
  if (isObject(request) && 'input' in request && !('messages' in request)) {
    if (isObject(body) && isResponsesObjectShape(body)) {
      const result = importResponsesObject(body, line);
      if (result.kind === 'error') return { records: [], errors: [result.error] };
      const record = { ...result.loaded.record, id, meta: { ...result.loaded.record.meta, ...meta } };
      return { records: [{ ...result.loaded, record, source: 'deepseek-verifier' }], errors: [] };
    }
    return withoutBody(id, meta, undefined, attempt, line);
  }
  if (!isObject(request) || !Array.isArray(request.messages)) return error(`attempt ${id}: its request has no "messages"`);
  const problem = messagesProblem(request.messages, 'attempt.request.messages');
  if (problem !== null) return error(`attempt ${id}: ${problem}`);
  const chatRequest = request as ChatRequest;

  const status = typeof attempt.status_code === 'number' ? attempt.status_code : null;
  if (isObject(body) && isChatCompletionShape(body)) {
    const bad = chatCompletionProblem(body);
    if (bad !== null) return error(`attempt ${id}: capture.decoded_json: ${bad}`);
    return loaded({ toolscope: 1, id, request: chatRequest, response: body as never, meta }, line);
  }
  const chunks = streamChunks(attempt.events);
  if (typeof chunks === 'string') return error(`attempt ${id}: ${chunks}`);
  if (chunks.length > 0) return loaded({ toolscope: 1, id, request: chatRequest, response: chunks, meta }, line);
  if (status !== null && status >= 400) {
    return loaded({ toolscope: 1, id, request: chatRequest, error: errorText(body ?? attempt.error ?? `HTTP ${status}`), meta }, line);
  }
  return withoutBody(id, meta, chatRequest, attempt, line);
}

/** The SSE events' `data` as chat chunks (`[DONE]` and comments dropped), or why one is not a chunk. */
function streamChunks(events: unknown): ChatCompletionChunk[] | string {
  const out: ChatCompletionChunk[] = [];
  if (!Array.isArray(events)) return out;
  for (let i = 0; i < events.length; i++) {
    const e: unknown = events[i];
    if (!isObject(e) || typeof e.data !== 'string' || e.data.trim() === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(e.data);
    } catch {
      return `events[${i}].data is not JSON`;
    }
    if (!isObject(chunk) || !Array.isArray(chunk.choices)) continue; // usage-only and error frames carry no delta
    const bad = chatChunkProblem(chunk, `events[${i}].data`);
    if (bad !== null) return bad;
    out.push(chunk as ChatCompletionChunk);
  }
  return out;
}

function errorText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An attempt whose body was omitted (redaction, an encoded body): its parsed observation, said to be parsed only. */
function withoutBody(id: string, meta: RecordMeta, request: ChatRequest | undefined, attempt: UnknownObject, line: number): ReadResult {
  const record: TraceRecord = { toolscope: 1, id, meta, ...(request ? { request } : {}) };
  const obs = attempt.response;
  if (isObject(obs)) {
    const join = (list: unknown) =>
      (Array.isArray(list) ? list : []).map((s) => (isObject(s) && typeof s.text === 'string' ? s.text : '')).join('');
    const content = join(obs.text_segments);
    const reasoning = join(obs.reasoning_segments);
    const calls = Object.values(isObject(obs.tools) ? obs.tools : {})
      .filter((t): t is UnknownObject => isObject(t) && typeof t.name === 'string')
      .sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
      .map((t) => ({
        type: 'function' as const,
        function: { name: t.name as string, arguments: typeof t.arguments === 'string' ? t.arguments : '' },
        ...(typeof t.call_id === 'string' ? { id: t.call_id } : {}),
      }));
    if (content !== '' || reasoning !== '' || calls.length > 0) {
      const message: ChatMessage = { role: 'assistant', content: content === '' ? null : content };
      if (reasoning !== '') message.reasoning_content = reasoning;
      if (calls.length > 0) message.tool_calls = calls;
      const finish = Object.values(isObject(obs.finish_reasons) ? obs.finish_reasons : {}).find((f) => typeof f === 'string');
      record.response = parsedCompletion(id, message, typeof finish === 'string' ? finish : null);
      meta.unchecked = PARSED_ONLY_NOTE;
    }
  }
  if (attempt.error !== undefined && attempt.error !== null) record.error = errorText(attempt.error);
  return loaded(record, line);
}

function loaded(record: TraceRecord, line: number): ReadResult {
  const l: LoadedRecord = { record, line, lastLine: line, source: 'deepseek-verifier' };
  return { records: [l], errors: [] };
}
