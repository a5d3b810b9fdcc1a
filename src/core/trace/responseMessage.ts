/**
 * The client's view of a recorded response: what it accumulated from a stream (or read from a whole
 * completion), and the per-chunk deltas it received on the way.
 */
import { DeltaAccumulator, type AccumulatedCall } from './deltaAccumulator.ts';
import type { ParserDelta } from './parserDelta.ts';
import { isStreamedResponse, type ChatCompletionChunkDelta, type RecordedResponse } from './record.ts';
import { mapped } from '../util/mapped.ts';

export interface ResponseMessage {
  streamed: boolean;
  content: string | null;
  reasoning: string | null;
  calls: AccumulatedCall[];
  finishReason: string | null;
  /** Choice 0's delta of every chunk, in order (streams only). */
  deltas: ChatCompletionChunkDelta[];
}

export function toParserDelta(delta: ChatCompletionChunkDelta): ParserDelta {
  const out: ParserDelta = {};
  if (typeof delta.content === 'string') out.content = delta.content;
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (typeof reasoning === 'string') out.reasoning_content = reasoning;
  if (Array.isArray(delta.tool_calls)) {
    // Records from files are checked at import (chatShapes.ts); records built in memory (replay, eval) are not.
    out.tool_calls = delta.tool_calls.filter(isObject).map((tc) => {
      const fn: { name?: string; arguments?: string } = {};
      if (typeof tc.function?.name === 'string') fn.name = tc.function.name;
      if (typeof tc.function?.arguments === 'string') fn.arguments = tc.function.arguments;
      return { index: typeof tc.index === 'number' ? tc.index : 0, ...(typeof tc.id === 'string' ? { id: tc.id } : {}), function: fn };
    });
  }
  return out;
}

function isObject<T>(value: T): value is T & object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object elements of what should be an array of objects (nothing, when it is not an array). */
function objects<T>(list: readonly T[] | undefined | null): Array<T & object> {
  return Array.isArray(list) ? list.filter(isObject) : [];
}

export function responseMessage(response: RecordedResponse): ResponseMessage {
  if (isStreamedResponse(response)) {
    const acc = new DeltaAccumulator();
    const deltas: ChatCompletionChunkDelta[] = [];
    let finishReason: string | null = null;
    for (const chunk of response) {
      const choice = objects(chunk?.choices).find((c) => (c.index ?? 0) === 0);
      if (!choice) continue;
      const delta = isObject(choice.delta) ? choice.delta : {};
      deltas.push(delta);
      acc.add(toParserDelta(delta));
      if (typeof choice.finish_reason === 'string' && choice.finish_reason) finishReason = choice.finish_reason;
    }
    const msg = acc.message();
    return { streamed: true, content: msg.content, reasoning: msg.reasoning, calls: msg.calls, finishReason, deltas };
  }
  const choice = objects(response.choices)[0];
  const message = isObject(choice?.message) ? choice.message : undefined;
  const content = typeof message?.content === 'string' && message.content !== '' ? message.content : null;
  const reasoningRaw = message?.reasoning_content ?? (typeof message?.reasoning === 'string' ? message.reasoning : null);
  // mapped, not map: checks read a record's calls (util/mapped.ts).
  const calls: AccumulatedCall[] = mapped(objects(message?.tool_calls), (tc, i) => ({
    index: typeof tc.index === 'number' ? tc.index : i,
    id: typeof tc.id === 'string' ? tc.id : null,
    name: typeof tc.function?.name === 'string' ? tc.function.name : null,
    arguments: typeof tc.function?.arguments === 'string' ? tc.function.arguments : '',
    fragments: typeof tc.function?.arguments === 'string' ? [tc.function.arguments] : [],
  }));
  return {
    streamed: false,
    content,
    reasoning: typeof reasoningRaw === 'string' && reasoningRaw !== '' ? reasoningRaw : null,
    calls,
    finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
    deltas: [],
  };
}
