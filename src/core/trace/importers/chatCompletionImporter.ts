/**
 * Non-streamed OpenAI / vLLM chat responses (`object: "chat.completion"`, or `choices[].message`).
 */
import type { ChatCompletion } from '../record.ts';
import { chatCompletionProblem } from './chatShapes.ts';
import { withLlamaVerbose } from './llamaCppImporter.ts';
import { isNonEmptyString, isObject, type UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

export function isChatCompletionShape(value: UnknownObject): boolean {
  if (value.object === 'chat.completion') return true;
  return Array.isArray(value.choices) && value.choices.some((c) => isObject(c) && isObject(c.message));
}

/** Why a chat.completion-looking object cannot be used as one (its element types, chatShapes.ts), or null. */
export { chatCompletionProblem } from './chatShapes.ts';

export function importChatCompletion(value: UnknownObject, line: number): ImportResult {
  const problem = chatCompletionProblem(value);
  if (problem !== null) return importError(line, `chat.completion: ${problem}`);
  const response = value as ChatCompletion;
  const loaded = {
    record: {
      toolscope: 1 as const,
      id: isNonEmptyString(value.id) ? value.id : `line-${line}`,
      response,
      meta: { endpoint: '/v1/chat/completions' },
    },
    line,
    lastLine: line,
    source: 'chat-completion' as const,
  };
  // llama.cpp adds the completion behind the response (`__verbose`, with --verbose) and its `timings`.
  if (value.__verbose === undefined && value.timings === undefined) return importedRecord(loaded);
  const withRaw = withLlamaVerbose(loaded, value.__verbose, value.timings);
  return typeof withRaw === 'string' ? importError(line, `chat.completion: ${withRaw}`) : importedRecord(withRaw);
}
