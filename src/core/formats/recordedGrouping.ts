/**
 * How a record's completion really reached the client in deltas, when the record says: the text of each chunk of a
 * streamed `/v1/completions` answer (a completions-mode replay keeps them in `meta.rawStream`), or the tokens
 * of each chunk of a streamed chat answer that carries `logprobs.content` (vLLM sends a chunk per engine step, so
 * several tokens per chunk under speculative decoding). Null when the record holds neither, or when the chunks
 * do not spell the completion exactly (then they are not evidence of its grouping).
 */
import type { TraceRecord } from '../trace/record.ts';
import type { RecordedGrouping } from './engineRun.ts';

export type { RecordedGrouping } from './engineRun.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function firstChoice(chunk: unknown): Record<string, unknown> | null {
  if (!isObject(chunk) || !Array.isArray(chunk.choices)) return null;
  const choice: unknown = chunk.choices.find((c: unknown) => isObject(c) && (c.index ?? 0) === 0);
  return isObject(choice) ? choice : null;
}

/** `/v1/completions` chunks kept as SSE data strings: each chunk's `choices[0].text` is one delta. */
function fromRawStream(raw: unknown): string[] | null {
  if (!Array.isArray(raw)) return null;
  const texts: string[] = [];
  for (const data of raw) {
    if (typeof data !== 'string') return null;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      continue; // [DONE] and the like
    }
    const choice = firstChoice(chunk);
    if (choice && typeof choice.text === 'string' && choice.text !== '') texts.push(choice.text);
  }
  return texts.length ? texts : null;
}

/** Chat chunks with `logprobs.content`: the tokens of each chunk are one delta. */
function fromChatLogprobs(response: unknown): string[] | null {
  if (!Array.isArray(response)) return null;
  const texts: string[] = [];
  for (const chunk of response) {
    const choice = firstChoice(chunk);
    const logprobs = choice?.logprobs;
    if (!isObject(logprobs) || !Array.isArray(logprobs.content)) continue;
    let text = '';
    for (const t of logprobs.content) {
      if (!isObject(t) || typeof t.token !== 'string') return null;
      text += t.token;
    }
    if (text !== '') texts.push(text);
  }
  return texts.length ? texts : null;
}

export function recordedGrouping(record: TraceRecord, completionText: string): RecordedGrouping | null {
  const candidates: Array<[string[] | null, string]> = [
    [fromRawStream(record.meta?.rawStream), 'the chunks of the recorded /v1/completions stream'],
    [fromChatLogprobs(record.response), 'the tokens of each recorded stream chunk (logprobs)'],
  ];
  for (const [texts, source] of candidates) {
    if (texts && texts.join('') === completionText) return { texts, source: `${source}, ${texts.length} chunks` };
  }
  return null;
}
