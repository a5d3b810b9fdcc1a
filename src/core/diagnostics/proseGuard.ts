/**
 * Where text that looks like a call is prose about code, not a call (docs/diagnostics.md, "Calls written without
 * markup"): code the answer shows — a fenced block, inline code, an indented block — unless the whole answer is one
 * fenced block the user did not ask for; a call inside a sentence, a list item, a heading, a table, a quote or a REPL
 * line (it must stand on its own line: nothing but tags and special tokens beside it); and a call introduced as an
 * example ("for example:", "usage:", "you would write:", "here's how…") on the lines just before it.
 */

export type Span = readonly [number, number];

const LINE_WINDOW = 4096;

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
  // Fences do not overlap and are in order: a pointer walks them as positions come in order.
  const fences = [...spans];
  const inFences = (): ((at: number) => boolean) => {
    let f = 0;
    return (at) => {
      while (f < fences.length && (fences[f] as Span)[1] <= at) f++;
      return f < fences.length && (fences[f] as Span)[0] <= at;
    };
  };
  for (const span of inlineCode(text, inFences())) spans.push(span);
  const inFence = inFences();
  for (const m of text.matchAll(/^(?: {4}|\t)[^\n]*$/gmu)) if (!inFence(m.index)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/**
 * Inline code: a backtick run closed by the next run of the same length (CommonMark's rule), found in one linear
 * pass over the runs — a text full of unmatched backticks costs no more than one without.
 */
function inlineCode(text: string, skip: (at: number) => boolean): Span[] {
  const runs: Array<{ at: number; len: number }> = [];
  // A plain loop: a regex match object per run costs more than the rest of the scan.
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i)) {
    let j = i;
    while (text.charCodeAt(j) === 96) j++;
    if (!skip(i)) runs.push({ at: i, len: j - i });
    i = j;
  }
  // The next run of the same length after each run, from the back.
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const len = (runs[i] as { len: number }).len;
    nextSame[i] = lastOfLength.get(len) ?? -1;
    lastOfLength.set(len, i);
  }
  const spans: Span[] = [];
  for (let i = 0; i < runs.length;) {
    const j = nextSame[i] as number;
    if (j < 0) {
      i++;
      continue;
    }
    const close = runs[j] as { at: number; len: number };
    spans.push([(runs[i] as { at: number }).at, close.at + close.len]);
    i = j + 1;
  }
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
  /** The code spans merged and in order, for a binary search; found on first use (most texts have no candidate call). */
  private codeSpans: Span[] | null = null;

  constructor(
    private readonly text: string,
    /** A fenced block that is not code (the whole answer, a fence the user did not ask for). */
    private readonly options: { unfenced?: Span | null } = {},
  ) {}

  private get code(): Span[] {
    if (this.codeSpans) return this.codeSpans;
    const unfenced = this.options.unfenced ?? null;
    const spans = codeSpans(this.text)
      .filter(([a, b]) => !(unfenced && a <= unfenced[0] && b >= unfenced[1]))
      .sort((p, q) => p[0] - q[0]);
    const merged: Array<[number, number]> = [];
    for (const [a, b] of spans) {
      const last = merged[merged.length - 1];
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
    this.codeSpans = merged;
    return merged;
  }

  inCode(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.code.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.code[mid] as Span)[1] <= start) lo = mid + 1;
      else hi = mid;
    }
    const span = this.code[lo];
    return span !== undefined && span[0] < end;
  }

  /**
   * The span stands on its own line(s): beside it on its first and last line only tags, special tokens, whitespace
   * and `others` (calls of the same shape, back to back); `loosePrefix` lets one word without spaces precede it
   * (a stray token the model wrote before its markup, e.g. `court<invoke …>`).
   */
  standsAlone(start: number, end: number, others: readonly Span[] = [], loosePrefix = false): boolean {
    // Only a bounded stretch of the line is looked at: a call beside kilobytes of text on its line is in prose.
    const head = this.text.slice(Math.max(0, start - LINE_WINDOW), start);
    const lineStart = start - head.length + head.lastIndexOf('\n') + 1;
    if (head.lastIndexOf('\n') < 0 && start > LINE_WINDOW) return false;
    const tail = this.text.slice(end, end + LINE_WINDOW);
    const nl = tail.indexOf('\n');
    if (nl < 0 && end + LINE_WINDOW < this.text.length) return false;
    const lineEnd = nl < 0 ? end + tail.length : end + nl;
    const near = others.filter(([x, y]) => x < lineEnd && y > lineStart).sort((p, q) => p[0] - q[0]);
    const rest = (a: number, b: number): string => {
      let s = '';
      let at = a;
      for (const [x, y] of near) {
        if (y <= a || x >= b) continue;
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
