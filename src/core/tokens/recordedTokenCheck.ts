/**
 * The recorded tokens of a completion, checked before they are trusted (recorded-tokens-invalid). Engines and
 * hand-written traces produce odd token lists: ids of -1 or 1.5, `"x"` or null for an id, a null where a token
 * belongs. A bad id, logprob or top list is left out and the token kept; a token that is not an object, or whose
 * text is not a string, makes the list unusable (the text is split approximately instead). Either way the record
 * says what was wrong, and nothing downstream reads an unchecked token.
 */
import type { RecordedToken } from '../trace/record.ts';

export interface CheckedTokens {
  /** The usable tokens (bad fields left out), or undefined when there are none or the list cannot be used. */
  tokens: RecordedToken[] | undefined;
  /** What was wrong, in words, or null. */
  problem: string | null;
}

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'string'
        ? JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)
        : typeof v === 'object'
          ? 'an object'
          : String(v);

const isTokenId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function topOf(v: unknown): RecordedToken['top'] | null {
  if (!Array.isArray(v)) return null;
  const out: NonNullable<RecordedToken['top']> = [];
  for (const alt of v) {
    if (typeof alt !== 'object' || alt === null || typeof alt.text !== 'string' || typeof alt.logprob !== 'number') return null;
    out.push(isTokenId(alt.id) ? { text: alt.text, logprob: alt.logprob, id: alt.id } : { text: alt.text, logprob: alt.logprob });
  }
  return out;
}

/**
 * A token that is a RecordedToken as it stands: text a string, an id (if any) a token id, a finite logprob (if any),
 * no top list (a top list's entries are rebuilt: topOf). Its other fields, if it has any, are never read.
 */
function isClean(raw: Record<string, unknown>): boolean {
  return (
    typeof raw.text === 'string' &&
    (raw.id === undefined || isTokenId(raw.id)) &&
    (raw.logprob === undefined || (typeof raw.logprob === 'number' && Number.isFinite(raw.logprob))) &&
    raw.top === undefined
  );
}

export function checkRecordedTokens(tokens: unknown): CheckedTokens {
  if (tokens === undefined) return { tokens: undefined, problem: null };
  if (!Array.isArray(tokens))
    return {
      tokens: undefined,
      problem: `completion.tokens is ${describe(tokens)}, not a list of tokens; the text is split approximately instead`,
    };
  // A token whose fields are all as a RecordedToken has them (the usual case: an engine's {text, id}) is used as it is;
  // the list is copied only from the first token that needs cleaning. A 36k-token completion made 36k copies here, a
  // tenth of its analysis's allocations, for tokenizeCompletion to read once.
  let out: RecordedToken[] | null = null;
  let badFields = 0;
  let first: string | null = null;
  // One closure for the list, not one per token.
  const note = (i: number, what: string) => {
    badFields++;
    first ??= `completion.tokens[${i}] has ${what}`;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t: unknown = tokens[i];
    if (typeof t !== 'object' || t === null || Array.isArray(t)) {
      return {
        tokens: undefined,
        problem: `completion.tokens[${i}] is ${describe(t)}, not a token object; the recorded tokens are not used (the text is split approximately instead)`,
      };
    }
    const raw = t as Record<string, unknown>;
    if (out === null) {
      if (isClean(raw)) continue;
      out = tokens.slice(0, i) as RecordedToken[];
    }
    // A token without text is one the engine gave as an id only (vLLM `token_id:N`); other types are not text.
    const text = raw.text === undefined ? '' : raw.text;
    if (typeof text !== 'string') {
      return {
        tokens: undefined,
        problem: `completion.tokens[${i}] has text ${describe(raw.text)}, not a string; the recorded tokens are not used (the text is split approximately instead)`,
      };
    }
    const token: RecordedToken = { text };
    if (raw.id !== undefined) {
      if (isTokenId(raw.id)) token.id = raw.id;
      else note(i, `id ${describe(raw.id)} (an id is a whole number, 0 or more)`);
    }
    if (raw.logprob !== undefined && raw.logprob !== null) {
      if (typeof raw.logprob === 'number' && Number.isFinite(raw.logprob)) token.logprob = raw.logprob;
      else note(i, `logprob ${describe(raw.logprob)}`);
    }
    if (raw.top !== undefined && raw.top !== null) {
      const top = topOf(raw.top);
      if (top) token.top = top;
      else note(i, `a "top" that is not a list of {text, logprob}`);
    }
    out.push(token);
  }
  const checked = out ?? (tokens as RecordedToken[]);
  if (badFields === 0) return { tokens: checked, problem: null };
  return {
    tokens: checked,
    problem: `${badFields} recorded token field${badFields === 1 ? ' is' : 's are'} invalid and left out (first: ${first ?? '?'})`,
  };
}
