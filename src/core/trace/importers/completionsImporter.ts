/**
 * `/v1/completions` responses (`object: "text_completion"`, or `choices[].text`): the raw text and, with
 * `logprobs`, the engine's own tokens. Recorded as given: aligning tokens to text is the tokens module's job.
 */
import type { Completion, RecordedToken } from '../record.ts';
import { describeJson, isNonEmptyString, isObject, type UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

export function isCompletionsShape(value: UnknownObject): boolean {
  if (value.object === 'text_completion') return true;
  return Array.isArray(value.choices) && value.choices.some((c) => isObject(c) && typeof c.text === 'string');
}

// vLLM's `return_tokens_as_token_ids` writes each token as `token_id:<id>`.
const TOKEN_ID = /^token_id:(\d+)$/;

function tokenOf(text: string): { id?: number; text: string } {
  const m = TOKEN_ID.exec(text);
  return m?.[1] !== undefined ? { id: Number(m[1]), text: '' } : { text };
}

/**
 * The tokens of a legacy `logprobs` object (`tokens`, `token_logprobs`, `top_logprobs`), or a problem message.
 * Null logprobs (an echoed first token) are left out rather than invented.
 */
export function tokensFromLogprobs(logprobs: unknown, path: string): RecordedToken[] | string | undefined {
  if (logprobs === null || logprobs === undefined) return undefined;
  if (!isObject(logprobs)) return `${path} must be an object, got ${describeJson(logprobs)}`;
  const { tokens, token_logprobs: logps, top_logprobs: tops } = logprobs;
  if (tokens === undefined || tokens === null) return undefined;
  if (!Array.isArray(tokens)) return `${path}.tokens must be an array, got ${describeJson(tokens)}`;
  if (logps !== undefined && logps !== null && !Array.isArray(logps)) {
    return `${path}.token_logprobs must be an array, got ${describeJson(logps)}`;
  }
  if (tops !== undefined && tops !== null && !Array.isArray(tops)) {
    return `${path}.top_logprobs must be an array, got ${describeJson(tops)}`;
  }
  const out: RecordedToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const text: unknown = tokens[i];
    if (typeof text !== 'string') return `${path}.tokens[${i}] must be a string, got ${describeJson(text)}`;
    const token: RecordedToken = tokenOf(text);
    const logprob: unknown = Array.isArray(logps) ? logps[i] : undefined;
    if (typeof logprob === 'number') token.logprob = logprob;
    const top: unknown = Array.isArray(tops) ? tops[i] : undefined;
    if (isObject(top)) {
      token.top = [];
      for (const [alt, lp] of Object.entries(top)) {
        if (typeof lp !== 'number') return `${path}.top_logprobs[${i}][${JSON.stringify(alt)}] must be a number`;
        token.top.push({ ...tokenOf(alt), logprob: lp });
      }
    }
    out.push(token);
  }
  return out;
}

export function importCompletions(value: UnknownObject, line: number): ImportResult {
  const choices = value.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    return importError(line, `text_completion: "choices" must be a non-empty array, got ${describeJson(choices)}`);
  }
  // One record per response: the first choice (n > 1 is not how tool-call traces are taken).
  const choice: unknown = choices[0];
  if (!isObject(choice)) return importError(line, `text_completion: choices[0] must be an object, got ${describeJson(choice)}`);
  if (typeof choice.text !== 'string') {
    return importError(line, `text_completion: choices[0].text must be a string, got ${describeJson(choice.text)}`);
  }
  const completion: Completion = { text: choice.text };
  const tokens = tokensFromLogprobs(choice.logprobs, 'choices[0].logprobs');
  if (typeof tokens === 'string') return importError(line, `text_completion: ${tokens}`);
  if (tokens !== undefined) completion.tokens = tokens;
  if (typeof choice.finish_reason === 'string' || choice.finish_reason === null) completion.finish_reason = choice.finish_reason;
  return importedRecord({
    record: {
      toolscope: 1,
      id: isNonEmptyString(value.id) ? value.id : `line-${line}`,
      completion,
      meta: { endpoint: '/v1/completions', ...(typeof value.model === 'string' ? { model: value.model } : {}) },
    },
    line,
    lastLine: line,
    source: 'completions',
  });
}
