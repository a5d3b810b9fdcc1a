/**
 * Where text that looks like a call is prose about code, not a call (docs/diagnostics.md, "Calls written without
 * markup"): code the answer shows — a fenced block, inline code, an indented block — unless the whole answer is one
 * fenced block the user did not ask for; a call inside a sentence, a list item, a heading, a table, a quote or a REPL
 * line (it must stand on its own line: nothing but tags and special tokens beside it); and a call introduced as an
 * example ("for example:", "usage:", "you would write:", "here's how…") on the lines just before it.
 */

export type Span = readonly [number, number];

/** Tags and special-token shapes that may stand beside a call on its line: a server's leftovers, not words. */
const IGNORABLE = /<\|[^<>|\s]{0,64}\|?>|<[^<>|\s]{1,64}\|>|<\/?[A-Za-z_][\w:.-]{0,40}>|\]<\]minimax\[>\[/gu;

/** Phrases on the lines before a call that make it an example of one. */
const EXAMPLE =
  /\be\.g\.|\b(?:for example|for instance|examples?|usage|syntax|signature|such as|like this|looks? like|would look|would write|you(?:'d| would| could| can| might)|could write|of the form|the form|format is|here(?:'s| is) how|the docs?|documentation|snippet|template|sample|declared as|defined as)\b/iu;

/** The spans of code the text shows: fenced blocks, inline code, indented (four-space or tab) lines. */
export function codeSpans(text: string): Span[] {
  const spans: Span[] = [];
  const fence = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*$/gmu;
  let open: { at: number; marker: string } | null = null;
  for (const m of text.matchAll(fence)) {
    const marker = (m[1] as string)[0] as string;
    if (!open) open = { at: m.index, marker: marker.repeat((m[1] as string).length) };
    else if ((m[1] as string).startsWith(open.marker) && m[0].trim() === m[1]) {
      spans.push([open.at, m.index + m[0].length]);
      open = null;
    }
  }
  if (open) spans.push([open.at, text.length]);
  const inFence = (at: number): boolean => spans.some(([a, b]) => at >= a && at < b);
  for (const m of text.matchAll(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)|(`+)(?!`)[^`]\2(?!`)/gu))
    if (!inFence(m.index)) spans.push([m.index, m.index + m[0].length]);
  for (const m of text.matchAll(/^(?: {4}|\t)[^\n]*$/gmu)) if (!inFence(m.index)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/** The text is one fenced block and nothing else: its body's span, or null. */
export function wholeFenceBody(text: string): Span | null {
  const m = /^\s*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*\s*$/u.exec(text);
  if (!m) return null;
  const start = text.indexOf('\n', text.indexOf(m[1] as string)) + 1;
  return [start, start + (m[2] as string).length];
}

/** Did the user's message ask for code (a snippet, an example, a script, how to call…)? */
export function asksForCode(message: string): boolean {
  return /\b(?:code|snippet|example|script|program|implement|function that|write (?:a|the|me)|show me how|how (?:do|can|would|should) (?:i|we|you)|in python|in javascript|in typescript|usage)\b/iu.test(
    message,
  );
}

export class ProseGuard {
  private readonly code: Span[];

  constructor(
    private readonly text: string,
    /** Spans that count as code even when not marked so; spans that are not code even inside a fence. */
    options: { unfenced?: Span | null } = {},
  ) {
    const unfenced = options.unfenced ?? null;
    this.code = codeSpans(text).filter(([a, b]) => !(unfenced && a <= unfenced[0] && b >= unfenced[1]));
  }

  inCode(start: number, end: number): boolean {
    return this.code.some(([a, b]) => start < b && a < end);
  }

  /**
   * The span stands on its own line(s): beside it on its first and last line only tags, special tokens, whitespace
   * and `others` (calls of the same shape, back to back); `loosePrefix` lets one word without spaces precede it
   * (a stray token the model wrote before its markup, e.g. `court<invoke …>`).
   */
  standsAlone(start: number, end: number, others: readonly Span[] = [], loosePrefix = false): boolean {
    const lineStart = this.text.lastIndexOf('\n', start - 1) + 1;
    const nl = this.text.indexOf('\n', end);
    const lineEnd = nl < 0 ? this.text.length : nl;
    const rest = (a: number, b: number): string => {
      let s = '';
      let at = a;
      for (const [x, y] of [...others].filter(([x, y]) => x < b && y > a).sort((p, q) => p[0] - q[0])) {
        if (x > at) s += this.text.slice(at, x);
        at = Math.max(at, y);
      }
      if (at < b) s += this.text.slice(at, b);
      return s.replace(IGNORABLE, '').trim();
    };
    const before = rest(lineStart, start);
    const after = rest(end, lineEnd);
    return after === '' && (before === '' || (loosePrefix && !/\s/u.test(before) && before.length <= 24));
  }

  /** An example phrase on the span's line or the three non-blank lines before it. */
  introducedAsExample(start: number): boolean {
    const lines = this.text.slice(Math.max(0, start - 600), start).split('\n');
    const recent = lines.filter((l) => l.trim() !== '').slice(-3);
    return recent.some((l) => EXAMPLE.test(l));
  }
}
