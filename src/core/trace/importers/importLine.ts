/**
 * Recognises what a JSON line is and hands it to its importer. The order matters: a `toolscope` key always
 * means a native record (so a bad version is reported as such), K2VV results carry a `request` that would
 * otherwise look like nothing, and responses are told apart from requests by `choices`.
 */
import { importAnthropicError, importAnthropicMessage, isAnthropicErrorShape, isAnthropicMessageShape } from './anthropicMessage.ts';
import { importChatCompletion, isChatCompletionShape } from './chatCompletionImporter.ts';
import { importChatRequest, isChatRequestShape } from './chatRequestImporter.ts';
import { importCompletions, isCompletionsShape } from './completionsImporter.ts';
import { importEngineErrorBody, isEngineErrorBodyShape } from './engineErrorBody.ts';
import { describeJson, isObject, listKeys } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';
import { importOllamaLines, isOllamaShape } from './ollamaImporter.ts';
import { importLlamaCompletion, isLlamaCompletionShape } from './llamaCppImporter.ts';
import { importResponsesObject, isResponsesObjectShape } from './responsesObject.ts';
import { isResponsesEvent } from './responsesStream.ts';
import { isAnthropicEvent } from './anthropicStream.ts';
import { importK2vvResult, isK2vvResultShape } from './k2vvResultImporter.ts';
import { importNative, isNativeShape } from './nativeImporter.ts';

const EXPECTED =
  'expected a native record {"toolscope": 1, "id": …}, a chat request {"messages": […]}, ' +
  'a K2VV result {"data_index", "request", "response", …}, a chat.completion or a text_completion response, ' +
  'an Anthropic message {"type": "message", "content": […]}, an OpenAI Responses object {"object": "response", "output": […]}, ' +
  'an Ollama /api/chat or /api/generate response {"model", "created_at", "message" or "response", "done"}, ' +
  'a llama.cpp /completion response {"content", "stop_type" or "completion_probabilities", …}, ' +
  'an engine error body {"error": "…"} or {"error": {"message", "code" or "type"}} (an HTTP status beside it allowed), ' +
  'an OpenTelemetry OTLP JSON export {"resourceSpans": […]} with GenAI spans, ' +
  "a Python printout of any of these (ChatCompletion(…), {'role': …}), " +
  'or SSE lines "data: {…}" (OpenAI chunks, Anthropic or Responses events, llama.cpp /completion chunks)';

export function importLine(value: unknown, line: number): ImportResult {
  if (!isObject(value)) return importError(line, `got ${describeJson(value)}; ${EXPECTED}`);
  if (isNativeShape(value)) return importNative(value, line);
  if (isK2vvResultShape(value)) return importK2vvResult(value, line);
  // An explicit `object` decides; the structure only when there is none.
  if (value.object === 'chat.completion') return importChatCompletion(value, line);
  if (value.object === 'text_completion') return importCompletions(value, line);
  if (value.object === 'chat.completion.chunk') {
    return importError(line, 'a chat.completion.chunk outside an SSE dump; write stream chunks as "data: {…}" lines');
  }
  if (isAnthropicMessageShape(value)) return importAnthropicMessage(value, line);
  if (isOllamaShape(value)) {
    // A lone object (pretty-printed, or keys in another order than Ollama writes them): one record of its own.
    const result = importOllamaLines([{ line, text: JSON.stringify(value) }]);
    const loaded = result.records[0];
    return loaded !== undefined
      ? importedRecord(loaded)
      : { kind: 'error', error: result.errors[0] ?? { line, message: `line ${line}: unreadable Ollama response` } };
  }
  if (isResponsesObjectShape(value)) return importResponsesObject(value, line);
  if (isResponsesEvent(value) || (isAnthropicEvent(value) && value.type !== 'error')) {
    return importError(
      line,
      `a stream event ("type": ${JSON.stringify(value.type)}) outside an SSE dump; write stream events as "data: {…}" lines`,
    );
  }
  if (isAnthropicErrorShape(value)) return importAnthropicError(value, line);
  if (isCompletionsShape(value)) return importCompletions(value, line);
  if (isChatCompletionShape(value)) return importChatCompletion(value, line);
  if (isLlamaCompletionShape(value)) {
    if (value.stop === false)
      return importError(
        line,
        'a llama.cpp /completion stream chunk ("stop": false) outside an SSE dump; write stream chunks as "data: {…}" lines',
      );
    return importLlamaCompletion(value, line);
  }
  if (isChatRequestShape(value)) return importChatRequest(value, line);
  if (isEngineErrorBodyShape(value)) return importEngineErrorBody(value, line);
  return importError(line, `not a recognised trace line (keys: ${listKeys(value)}); ${EXPECTED}`);
}
