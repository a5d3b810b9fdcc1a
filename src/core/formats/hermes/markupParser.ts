/**
 * What the Hermes, Qwen3-Coder, DeepSeek-V3.1 and Harmony reference parsers share: the streaming scan loop with a
 * bounded hold-back of a possible marker prefix (the Kimi K2 parser's design, generalised over a marker table),
 * the delta builder, and the bookkeeping of a `ParseResult`.
 *
 * Every marker of these formats starts with `<`. Text is scanned once: between pushes the loop keeps back only a
 * tail that could still become a marker (shorter than the longest marker); everything else goes to the format's
 * `text()` and `marker()` handlers, which see the same calls whatever the cut of the input (split invariance).
 */
import type {
  CharRange,
  MarkerOccurrence,
  ParsedCall,
  ParseResult,
  ParserDelta,
  StreamingParser,
  StructureNote,
  StructureNoteKind,
  ToolCallDelta,
} from '../toolCallFormat.ts';

export interface MarkerDef<N extends string = string> {
  text: string;
  name: N;
}

export const isWhitespace = (c: string): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v';

/** Length of the whitespace run at the start of `s`. */
export function leadingWhitespace(s: string): number {
  let i = 0;
  while (i < s.length && isWhitespace(s[i] as string)) i++;
  return i;
}

/** Collects what one push emits, merging argument fragments of the same call. Fields are absent, never empty. */
export class DeltaBuilder {
  content = '';
  reasoning = '';
  calls: ToolCallDelta[] = [];

  addCall(delta: ToolCallDelta): void {
    const last = this.calls[this.calls.length - 1];
    if (last && last.index === delta.index && delta.id === undefined && delta.function.name === undefined) {
      last.function.arguments = (last.function.arguments ?? '') + (delta.function.arguments ?? '');
      return;
    }
    this.calls.push(delta);
  }

  addArguments(index: number, fragment: string): void {
    if (fragment) this.addCall({ index, function: { arguments: fragment } });
  }

  take(): ParserDelta | null {
    if (this.content === '' && this.reasoning === '' && this.calls.length === 0) return null;
    const out: ParserDelta = {};
    if (this.content) out.content = this.content;
    if (this.reasoning) out.reasoning_content = this.reasoning;
    if (this.calls.length) out.tool_calls = this.calls;
    this.content = '';
    this.reasoning = '';
    this.calls = [];
    return out;
  }
}

/** A fresh call record; spans are filled in as the call is read. */
export function newCall(index: number, start: number, end: number): ParsedCall {
  return {
    index,
    id: '',
    name: '',
    arguments: '',
    span: { start, end },
    idSpan: { start: end, end },
    argumentsSpan: null,
    terminated: false,
    source: 'markup',
  };
}

/**
 * The scan loop and result bookkeeping. Subclasses say which markers count in the current state and what text and
 * markers do there; `end()` closes whatever is open when the stream ends.
 */
export abstract class MarkupParser<S extends string, N extends string> implements StreamingParser {
  protected st: S;
  /** Text not yet consumed: a possible marker prefix at the end of the last push. */
  private hold = '';
  /** Absolute offset of `hold[0]` in the whole text. */
  private offset = 0;
  private readonly maxMarkerLength: number;
  protected readonly out = new DeltaBuilder();

  protected content = '';
  protected reasoning = '';
  protected readonly calls: ParsedCall[] = [];
  protected readonly markerList: MarkerOccurrence[] = [];
  protected readonly notes: StructureNote[] = [];
  protected readonly contentSpans: CharRange[] = [];
  protected finished = false;

  protected constructor(
    private readonly table: readonly MarkerDef<N>[],
    initial: S,
    private readonly label: string,
  ) {
    this.st = initial;
    this.maxMarkerLength = Math.max(...table.map((m) => m.text.length));
  }

  get state(): S {
    return this.st;
  }

  push(text: string): ParserDelta | null {
    if (this.finished) throw new Error(`${this.label}: push() after finish()`);
    // Fast path: most tokens are plain text with nothing held back.
    if (this.hold === '' && text.indexOf('<') < 0) {
      if (text) this.text(text, this.offset);
      this.offset += text.length;
      return this.out.take();
    }
    const buf = this.hold + text;
    const base = this.offset;
    let pos = 0;
    for (;;) {
      const lt = buf.indexOf('<', pos);
      if (lt < 0) {
        if (pos < buf.length) this.text(buf.slice(pos), base + pos);
        pos = buf.length;
        break;
      }
      if (lt > pos) this.text(buf.slice(pos, lt), base + pos);
      const match = this.markerAt(buf, lt);
      if (match === 'partial') {
        pos = lt;
        break;
      }
      if (match) {
        this.marker(match, base + lt);
        pos = lt + match.text.length;
      } else {
        this.text('<', base + lt);
        pos = lt + 1;
      }
    }
    this.hold = buf.slice(pos);
    this.offset = base + pos;
    return this.out.take();
  }

  finish(): ParserDelta | null {
    if (this.finished) return null;
    // A held marker prefix is only text after all.
    if (this.hold) this.text(this.hold, this.offset);
    this.offset += this.hold.length;
    this.hold = '';
    this.end(this.offset);
    this.finished = true;
    return this.out.take();
  }

  result(): ParseResult {
    const calls = this.calls.map((c) => ({ ...c, span: { ...c.span }, idSpan: { ...c.idSpan }, argumentsSpan: c.argumentsSpan ? { ...c.argumentsSpan } : null }));
    // A call still open mid-stream is reported as it stands.
    const open = this.finished ? null : this.openCall();
    if (open) calls.push(open);
    return {
      content: this.content === '' ? null : this.content,
      reasoning: this.reasoning === '' ? null : this.reasoning,
      calls,
      markers: this.markerList.map((m) => ({ ...m, span: { ...m.span } })),
      notes: this.notes.map((n) => ({ ...n, span: { ...n.span } })),
      contentSpans: this.contentSpans.map((s) => ({ ...s })),
    };
  }

  /** Is `m` a marker in the current state? Elsewhere its text is just text. */
  protected abstract recognised(m: MarkerDef<N>): boolean;
  protected abstract text(text: string, at: number): void;
  protected abstract marker(m: MarkerDef<N>, at: number): void;
  /** The stream ended at `at`. */
  protected abstract end(at: number): void;
  /** The call being read, as it stands (for `result()` mid-stream). */
  protected abstract openCall(): ParsedCall | null;

  private markerAt(buf: string, at: number): MarkerDef<N> | 'partial' | null {
    const rest = buf.length - at;
    let partial = false;
    for (const m of this.table) {
      if (!this.recognised(m)) continue;
      if (rest >= m.text.length) {
        if (buf.startsWith(m.text, at)) return m;
      } else if (!partial && m.text.startsWith(buf.slice(at))) {
        partial = true;
      }
    }
    // Only hold back when the tail could still become a marker; rest < the longest marker bounds the hold.
    return partial && rest < this.maxMarkerLength ? 'partial' : null;
  }

  // ---- bookkeeping ---------------------------------------------------------------------------------

  protected recordMarker(m: MarkerDef<N>, at: number): CharRange {
    const span = { start: at, end: at + m.text.length };
    this.markerList.push({ name: m.name, text: m.text, span: { ...span } });
    return span;
  }

  protected emitContent(text: string, at: number): void {
    if (!text) return;
    this.content += text;
    this.out.content += text;
    const last = this.contentSpans[this.contentSpans.length - 1];
    if (last && last.end === at) last.end = at + text.length;
    else this.contentSpans.push({ start: at, end: at + text.length });
  }

  protected emitReasoning(text: string): void {
    if (!text) return;
    this.reasoning += text;
    this.out.reasoning += text;
  }

  protected note(kind: StructureNoteKind, start: number, end: number, detail: string): void {
    this.notes.push({ kind, span: { start, end }, detail });
  }

  /** Announces a call to the client: name (and type) once, before any argument fragment. */
  protected announce(call: ParsedCall): void {
    const fn: { name?: string } = {};
    if (call.name) fn.name = call.name;
    this.out.addCall({ index: call.index, type: 'function', function: fn });
  }
}
