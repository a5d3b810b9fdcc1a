/**
 * Python printouts as trace records: the text is read with the strict literal reader (pythonLiteral.ts), then
 * imported like the JSON it stands for. The OpenAI SDK's smaller objects, printed alone, are wrapped into the
 * response they belong to: a `ChatCompletionMessage` (an object with `role: "assistant"`) becomes a
 * `chat.completion` with that message, a `ChatCompletionMessageToolCall` (`function` and `type: "function"`) a
 * message with that call, a `Function` (`name` and a string `arguments`) a call. Such a wrapped record has no
 * finish reason (the printout did not show one). `meta.printout` says the record was read from a printout.
 */
import { importLine } from './importLine.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';
import { PythonLiteralError, parsePythonLiteral, type PyValue } from './pythonLiteral.ts';

function wrapped(value: PyValue): PyValue {
  if (!isObject(value) || 'choices' in value || 'messages' in value) return value;
  const completion = (message: UnknownObject): PyValue => ({
    object: 'chat.completion',
    choices: [{ index: 0, message: message as PyValue, finish_reason: null }],
  });
  if (value.role === 'assistant') return completion(value);
  if (isObject(value.function) && value.type === 'function')
    return completion({ role: 'assistant', content: null, tool_calls: [value as PyValue] });
  if (typeof value.name === 'string' && typeof value.arguments === 'string' && Object.keys(value).length === 2) {
    return completion({ role: 'assistant', content: null, tool_calls: [{ type: 'function', function: value as PyValue }] });
  }
  return value;
}

/** Reads a printout (one line or several) as a value, or says why not. */
export function readPrintout(text: string): { value: PyValue } | { error: string } {
  try {
    return { value: parsePythonLiteral(text) };
  } catch (err) {
    if (err instanceof PythonLiteralError) return { error: err.message };
    throw err;
  }
}

/** Imports a printout spanning `line`…`lastLine`. */
export function importPrintout(text: string, line: number, lastLine: number): ImportResult {
  const read = readPrintout(text);
  if ('error' in read) return importError(line, `not JSON, nor a Python printout Toolscope can read: ${read.error}`);
  const result = importLine(wrapped(read.value), line);
  if (result.kind === 'error') return result;
  const loaded = result.loaded;
  return importedRecord({
    ...loaded,
    lastLine: Math.max(loaded.lastLine, lastLine),
    record: { ...loaded.record, meta: { ...loaded.record.meta, printout: 'python' } },
  });
}
