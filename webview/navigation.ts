/**
 * Where stepping goes and what the client had at a token: pure functions over the record view, DOM-free so
 * they can be tested in Node.
 */
import type { Diagnostic } from '../src/shared/diagnostic.ts';
import type { ParserDelta } from '../src/shared/parserDelta.ts';
import type { CallView, RecordView, TokenView } from '../src/shared/protocol.ts';
import { canonicalJson } from '../src/shared/canonicalJson.ts';

export function isMarker(t: TokenView): boolean {
  return t.special || t.role === 'marker' || t.role === 'think-marker' || t.role === 'special';
}

/** Indices of tokens matching `pred`, ascending. */
export function indicesWhere(tokens: readonly TokenView[], pred: (t: TokenView) => boolean): number[] {
  const out: number[] = [];
  tokens.forEach((t, i) => {
    if (pred(t)) out.push(i);
  });
  return out;
}

/** First value in ascending `sorted` greater than `x`, or null. */
export function nextAfter(sorted: readonly number[], x: number): number | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? (sorted[lo] as number) : null;
}

/** Last value in ascending `sorted` less than `x`, or null. */
export function prevBefore(sorted: readonly number[], x: number): number | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? (sorted[lo - 1] as number) : null;
}

export interface AnchoredDiagnostic {
  /** Index in `view.diagnostics`. */
  index: number;
  start: number;
  end: number;
  diagnostic: Diagnostic;
}

/** Diagnostics anchored to completion tokens, by position (then catalogue order). */
export function anchoredDiagnostics(view: Pick<RecordView, 'diagnostics' | 'tokens'>): AnchoredDiagnostic[] {
  const n = view.tokens.length;
  const out: AnchoredDiagnostic[] = [];
  view.diagnostics.forEach((d, index) => {
    if (d.where !== 'completion' || d.tokenStart === null || d.tokenEnd === null) return;
    const start = Math.max(0, Math.min(d.tokenStart, n));
    const end = Math.max(start, Math.min(d.tokenEnd, n));
    if (end > start) out.push({ index, start, end, diagnostic: d });
  });
  out.sort((a, b) => a.start - b.start || a.index - b.index);
  return out;
}

/** Indices (in `view.diagnostics`) of the findings not on the tokens (response, reasoning, request, or no tokens), in order. */
export function offTokenDiagnostics(view: Pick<RecordView, 'diagnostics'>, anchored: readonly AnchoredDiagnostic[]): number[] {
  const on = new Set(anchored.map((d) => d.index));
  return view.diagnostics.flatMap((_, i) => (on.has(i) ? [] : [i]));
}

/**
 * Next/previous diagnostic. `active` is the position in `list` of the diagnostic last jumped to (so several
 * diagnostics at one token are visited in turn), or null after the cursor moved some other way.
 */
export function stepDiagnostic(list: readonly AnchoredDiagnostic[], cursor: number, active: number | null, dir: 1 | -1): number | null {
  if (list.length === 0) return null;
  if (active !== null && list[active] && list[active].start === cursor) {
    const next = active + dir;
    return next >= 0 && next < list.length ? next : null;
  }
  if (dir === 1) {
    const i = list.findIndex((d) => d.start >= cursor);
    return i === -1 ? null : i;
  }
  for (let i = list.length - 1; i >= 0; i--) if ((list[i] as AnchoredDiagnostic).start <= cursor) return i;
  return null;
}

export function diagnosticsAt(list: readonly AnchoredDiagnostic[], token: number): AnchoredDiagnostic[] {
  return list.filter((d) => d.start <= token && token < d.end);
}

/** The call whose tokens hold `cursor`, if any. */
export function callAt(calls: readonly CallView[], cursor: number): CallView | null {
  return calls.find((c) => c.tokenEnd > c.tokenStart && c.tokenStart <= cursor && cursor < c.tokenEnd) ?? null;
}

export interface AccumulatedCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
  /** Last token whose delta touched this call. */
  lastToken: number;
}

function addCallDeltas(acc: Map<number, AccumulatedCall>, delta: ParserDelta | null, token: number): void {
  for (const tc of delta?.tool_calls ?? []) {
    const c = acc.get(tc.index) ?? { index: tc.index, id: '', name: '', arguments: '', lastToken: token };
    if (tc.id) c.id = tc.id;
    if (tc.function.name) c.name += tc.function.name;
    if (tc.function.arguments) c.arguments += tc.function.arguments;
    c.lastToken = token;
    acc.set(tc.index, c);
  }
}

/**
 * The tool calls as the client has them after the delta of token `cursor` (and the final flush at the end).
 * `callTokens` (from `indicesWhere(tokens, hasCallDelta)`) saves scanning every token of a long record.
 */
export function accumulatedCalls(
  view: Pick<RecordView, 'tokens' | 'finalEmitted'>,
  cursor: number,
  callTokens?: readonly number[],
): AccumulatedCall[] {
  const acc = new Map<number, AccumulatedCall>();
  const last = Math.min(cursor, view.tokens.length - 1);
  if (callTokens) {
    for (const i of callTokens) {
      if (i > last) break;
      addCallDeltas(acc, (view.tokens[i] as TokenView).emitted, i);
    }
  } else for (let i = 0; i <= last; i++) addCallDeltas(acc, (view.tokens[i] as TokenView).emitted, i);
  if (cursor >= view.tokens.length - 1) addCallDeltas(acc, view.finalEmitted, Math.max(0, view.tokens.length - 1));
  return [...acc.values()].sort((a, b) => a.index - b.index);
}

/** The client's text so far (content and reasoning), for the inspector's summary. */
export function accumulatedText(view: Pick<RecordView, 'tokens'>, cursor: number): { content: number; reasoning: number } {
  let content = 0;
  let reasoning = 0;
  const last = Math.min(cursor, view.tokens.length - 1);
  for (let i = 0; i <= last; i++) {
    const e = (view.tokens[i] as TokenView).emitted;
    if (!e) continue;
    content += e.content?.length ?? 0;
    reasoning += e.reasoning_content?.length ?? 0;
  }
  return { content, reasoning };
}

export function hasCallDelta(t: TokenView): boolean {
  return Boolean(t.emitted?.tool_calls?.length);
}

export function hasDelta(t: TokenView): boolean {
  return t.emitted !== null;
}

/** The next token after `from` at which the client receives something, or null. */
export function nextEmission(tokens: readonly TokenView[], from: number): number | null {
  for (let i = from + 1; i < tokens.length; i++) if ((tokens[i] as TokenView).emitted) return i;
  return null;
}

export function isEmptyDelta(d: ParserDelta | null): boolean {
  return !d || (d.content === undefined && d.reasoning_content === undefined && !(d.tool_calls && d.tool_calls.length));
}

/** Two argument strings: equal, equal as JSON (formatting differs), or different. */
export function compareArguments(a: string, b: string): 'same' | 'same-json' | 'different' {
  if (a === b) return 'same';
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b)) ? 'same-json' : 'different';
  } catch {
    return 'different';
  }
}

export { canonicalJson };
