/**
 * Native records (`{"toolscope": 1, "id": …}`): checked minimally (version, id, the JSON type of each field)
 * so that later stages can trust the shape; the content is kept as written.
 */
import type { TraceRecord } from '../record.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';
import { requestProblem, responseProblem } from './chatShapes.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

export const NATIVE_VERSION = 1;

export function isNativeShape(value: UnknownObject): boolean {
  return 'toolscope' in value;
}

/** The first field whose JSON type is wrong, as a message, or null. */
function fieldProblem(value: UnknownObject): string | null {
  if ('request' in value && !isObject(value.request)) return `"request" must be an object, got ${describeJson(value.request)}`;
  if (isObject(value.request)) {
    const problem = requestProblem(value.request, 'request');
    if (problem !== null) return problem;
  }
  if ('prompt' in value && typeof value.prompt !== 'string') return `"prompt" must be a string, got ${describeJson(value.prompt)}`;
  if ('completion' in value) {
    const completion = value.completion;
    if (!isObject(completion)) return `"completion" must be an object, got ${describeJson(completion)}`;
    if (typeof completion.text !== 'string') return `"completion.text" must be a string, got ${describeJson(completion.text)}`;
    if ('tokens' in completion && !Array.isArray(completion.tokens)) {
      return `"completion.tokens" must be an array, got ${describeJson(completion.tokens)}`;
    }
  }
  if ('response' in value) {
    const problem = responseProblem(value.response, 'response');
    if (problem !== null) return problem;
  }
  if ('error' in value && typeof value.error !== 'string') return `"error" must be a string, got ${describeJson(value.error)}`;
  if ('meta' in value && !isObject(value.meta)) return `"meta" must be an object, got ${describeJson(value.meta)}`;
  return null;
}

export function importNative(value: UnknownObject, line: number): ImportResult {
  if (value.toolscope !== NATIVE_VERSION) {
    return importError(
      line,
      `unsupported native record version "toolscope": ${JSON.stringify(value.toolscope)} (this build reads version ${NATIVE_VERSION})`,
    );
  }
  if (typeof value.id !== 'string' || value.id.length === 0) {
    return importError(line, `native record needs a non-empty string "id", got ${describeJson(value.id)}`);
  }
  const problem = fieldProblem(value);
  if (problem !== null) return importError(line, `native record: ${problem}`);
  // Checked above: the version, the id and every field's JSON type.
  const record = value as unknown as TraceRecord;
  return importedRecord({ record, line, lastLine: line, source: 'native' });
}
