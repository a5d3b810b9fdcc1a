/**
 * Tool calls written as bare JSON objects — `{"name": "f", "arguments": {…}}` or `{"name": "f", "parameters": {…}}`
 * — in text a client reads as prose (content, reasoning). The most common Ollama / Hermes-family failure: the model
 * answered with the call's JSON and no markup, so no tool parser turned it into `tool_calls`.
 *
 * Only objects whose `name` is a tool the request offered count (when the request's tools are known), so JSON that
 * merely has a `name` key is not taken for a call. Scanning is linear: each candidate `{"name"` is matched to its
 * closing brace once, strings and escapes respected, and no candidate is longer than `MAX_OBJECT`.
 */

export interface BareJsonCall {
  name: string;
  /** The arguments as a JSON text (an object, or the string a model wrote when it double-encoded them). */
  arguments: string;
  /** Which key held the arguments. */
  key: 'arguments' | 'parameters';
  start: number;
  end: number;
}

const MAX_OBJECT = 200_000;
const CANDIDATE = /\{\s*"name"\s*:/gu;

/** Index just past the object that opens at `start` (a `{`), or -1 when it does not close within the bound. */
export function jsonObjectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  const limit = Math.min(text.length, start + MAX_OBJECT);
  for (let i = start; i < limit; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Bare JSON calls in `text`; with `tools`, only those naming one of them. */
export function findBareJsonCalls(text: string, tools: ReadonlySet<string> | null): BareJsonCall[] {
  const out: BareJsonCall[] = [];
  CANDIDATE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CANDIDATE.exec(text)) !== null) {
    const start = m.index;
    const end = jsonObjectEnd(text, start);
    if (end < 0) continue;
    const call = asCall(text.slice(start, end));
    if (!call || (tools && !tools.has(call.name))) continue;
    out.push({ ...call, start, end });
    CANDIDATE.lastIndex = end;
  }
  return out;
}

function asCall(json: string): Omit<BareJsonCall, 'start' | 'end'> | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name === '') return null;
  for (const key of ['arguments', 'parameters'] as const) {
    const args = o[key];
    if (typeof args === 'string') return { name: o.name, arguments: args, key };
    if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { name: o.name, arguments: JSON.stringify(args), key };
  }
  return null;
}
