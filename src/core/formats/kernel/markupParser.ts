/**
 * The parser kernel every format's reference parser stands on: the streaming scan loop with a bounded hold-back of
 * a possible marker prefix, the delta builder, and the bookkeeping of a `ParseResult`.
 *
 * Most formats' markers start with `<` (Mistral's with `[`): the loop looks for the first characters the table's
 * markers start with. Text is scanned once: between pushes the loop keeps back only
 * a tail that could still become a marker (shorter than the longest marker); everything else goes to the format's
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
  ParserState,
} from '../toolCallFormat.ts';
import { mapped } from '../../util/mapped.ts';

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

/** A copy that shares no mutable span with the parser's own call. */
function copyCall(c: ParsedCall): ParsedCall {
  return { ...c, span: { ...c.span }, idSpan: { ...c.idSpan }, argumentsSpan: c.argumentsSpan ? { ...c.argumentsSpan } : null };
}

/**
 * The scan loop and result bookkeeping. Subclasses say which markers count in the current state and what text and
 * markers do there; `end()` closes whatever is open when the stream ends.
 */
export abstract class MarkupParser<N extends string> implements StreamingParser {
  protected st: ParserState;
  /** Text not yet consumed: a possible marker prefix at the end of the last push. */
  private hold = '';
  /** Absolute offset of `hold[0]` in the whole text. */
  private offset = 0;
  private readonly maxMarkerLength: number;
  /** The characters the table's markers start with (`<` for most formats). */
  private readonly leads: string;
  protected readonly out = new DeltaBuilder();

  protected content = '';
  protected reasoning = '';
  protected readonly calls: ParsedCall[] = [];
  protected readonly markerList: MarkerOccurrence[] = [];
  protected readonly notes: StructureNote[] = [];
  protected readonly contentSpans: CharRange[] = [];
  protected finished = false;
  /** Whitespace right after a closing marker is layout: dropped from content until the first other character. */
  protected skipLayout = false;
  /** Where the open think block began (0: the template opened it in the prompt); null outside one. */
  private thinkOpenedAt: number | null = null;
  /** Tool markup inside the open think block is noted once per block. */
  private thinkCallNoted = false;
  /** The note of a section (or call) that ended the think block, until a later `</think>` closes that block after it. */
  private thinkEndedBySection: StructureNote | null = null;

  protected constructor(
    private readonly table: readonly MarkerDef<N>[],
    initial: ParserState,
    private readonly label: string,
  ) {
    this.st = initial;
    if (initial === 'reasoning') this.thinkOpenedAt = 0;
    this.maxMarkerLength = Math.max(...table.map((m) => m.text.length));
    this.leads = [...new Set(table.map((m) => m.text[0] ?? ''))].join('');
  }

  get state(): ParserState {
    return this.st;
  }

  push(text: string): ParserDelta | null {
    if (this.finished) throw new Error(`${this.label}: push() after finish()`);
    // Fast path: most tokens are plain text with nothing held back.
    if (this.hold === '' && this.nextLead(text, 0) < 0) {
      if (text) this.text(text, this.offset);
      this.offset += text.length;
      return this.out.take();
    }
    const buf = this.hold + text;
    const base = this.offset;
    let pos = 0;
    for (;;) {
      const lt = this.nextLead(buf, pos);
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
        this.text(buf[lt] as string, base + lt);
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
    const calls = mapped(this.calls, copyCall);
    // A call still open mid-stream is reported as it stands.
    const open = this.finished ? null : this.openCall();
    if (open) calls.push(copyCall(open));
    return {
      content: this.content === '' ? null : this.content,
      reasoning: this.reasoning === '' ? null : this.reasoning,
      calls,
      markers: mapped(this.markerList, (m) => ({ ...m, span: { ...m.span } })),
      notes: mapped(this.notes, (n) => ({ ...n, span: { ...n.span } })),
      contentSpans: mapped(this.contentSpans, (s) => ({ ...s })),
    };
  }

  /** Where the next character a marker may start with is, from `from`; -1 when there is none. */
  private nextLead(text: string, from: number): number {
    if (this.leads.length === 1) return text.indexOf(this.leads, from);
    for (let i = from; i < text.length; i++) if (this.leads.includes(text[i] as string)) return i;
    return -1;
  }

  /** Is `m` a marker in the current state? Elsewhere its text is just text. */
  protected abstract recognised(m: MarkerDef<N>): boolean;
  /** Text in the current state: reasoning text belongs to the think block; the rest goes to the format. */
  protected text(text: string, at: number): void {
    switch (this.st) {
      case 'content':
        return this.contentText(text, at);
      case 'reasoning':
        return this.emitReasoning(text);
      case 'section':
        return this.sectionText(text, at);
      case 'call-id':
      case 'call-arguments':
        return this.callText(text, at);
    }
  }

  /** Content text (its leading whitespace is layout after a closing marker that set `skipLayout`). */
  protected contentText(text: string, at: number): void {
    this.emitContentAfterLayout(text, at);
  }

  /** Text between the calls of a section; by default, like text inside a call. */
  protected sectionText(text: string, at: number): void {
    this.callText(text, at);
  }

  /** Text inside a call: its header or its arguments. */
  protected abstract callText(text: string, at: number): void;
  protected abstract marker(m: MarkerDef<N>, at: number): void;
  /** The stream ended at `at`: a think block left open is noted; a section or call left open is the format's. */
  protected end(at: number): void {
    if (this.st === 'reasoning') this.endInThink(at);
    else if (this.st !== 'content') this.endInCall(at);
  }

  /** The stream ended inside a section or a call. */
  protected abstract endInCall(at: number): void;
  /** The call being read, as it stands (for `result()` mid-stream; the kernel copies it). */
  protected abstract openCall(): ParsedCall | null;

  private markerAt(buf: string, at: number): MarkerDef<N> | 'partial' | null {
    const rest = buf.length - at;
    let partial = false;
    for (const m of this.table) {
      if (!this.recognised(m)) continue;
      if (rest >= m.text.length) {
        // A longer marker listed before this one may still follow: wait for it (`]<]minimax[>[<` vs `…</`).
        if (buf.startsWith(m.text, at)) return partial ? 'partial' : m;
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

  /** Content that may follow a closing marker: its leading whitespace is layout while `skipLayout` is set. */
  protected emitContentAfterLayout(text: string, at: number): void {
    if (this.skipLayout) {
      const i = leadingWhitespace(text);
      if (i === text.length) return;
      this.skipLayout = false;
      this.emitContent(text.slice(i), at + i);
      return;
    }
    this.emitContent(text, at);
  }

  protected emitReasoning(text: string): void {
    if (!text) return;
    this.reasoning += text;
    this.out.reasoning += text;
  }

  // ---- the think block ---------------------------------------------------------------------------

  protected openThink(at: number): void {
    this.st = 'reasoning';
    this.thinkOpenedAt = at;
    this.thinkCallNoted = false;
    this.thinkEndedBySection = null;
  }

  /**
   * A marker inside the think block. `</think>` ends it (true). Any other marker is reasoning text; tool markup
   * there is noted once, as the reasoning parser swallows it and the call never reaches the client.
   */
  protected markerInThink(m: MarkerDef<N>, start: number, end: number, isThinkEnd: boolean): boolean {
    if (isThinkEnd) {
      this.st = 'content';
      this.thinkOpenedAt = null;
      return true;
    }
    this.emitReasoning(m.text);
    if (!this.thinkCallNoted) {
      this.note('call-in-think', start, end, 'tool-call markup inside a <think> block');
      this.thinkCallNoted = true;
    }
    return false;
  }

  /** In content: `<think>` opens the think block, `</think>` with none open is stray. True when `m` was either. */
  protected thinkMarkerInContent(m: MarkerDef<N>, start: number, end: number): boolean {
    if (m.name === 'think-begin') this.openThink(start);
    else if (m.name === 'think-end') this.strayThinkEnd(start, end);
    else return false;
    return true;
  }

  /** `</think>` with no think block open (the whitespace after it is layout). */
  protected strayThinkEnd(start: number, end: number): void {
    this.note('stray-marker', start, end, '</think> without <think>');
    this.skipLayout = true;
  }

  /** Something other than `</think>` ended the think block (Kimi K2: a section begin); the parser moves to `state`. */
  protected leaveThink(state: ParserState): void {
    this.st = state;
    this.thinkOpenedAt = null;
  }

  /**
   * A section (or call) began inside the unclosed think block: the engines' consensus ends the reasoning there and
   * the calls reach the client (noted `think-ended-by-section`, detail `unclosed`); the parser moves to `state`.
   */
  protected thinkEndedBy(start: number, end: number, state: ParserState): void {
    this.note('think-ended-by-section', start, end, 'unclosed');
    this.thinkEndedBySection = this.notes[this.notes.length - 1] as StructureNote;
    this.leaveThink(state);
  }

  /**
   * A `</think>` in content after a section ended the think block closes that block late: not stray, but the engines'
   * non-streaming parsers split at it and keep the section as reasoning (the note's detail becomes `closed-later`).
   * True when it did.
   */
  protected thinkClosedLater(): boolean {
    if (!this.thinkEndedBySection) return false;
    this.thinkEndedBySection.detail = 'closed-later';
    this.thinkEndedBySection = null;
    return true;
  }

  /** The stream ended inside the think block. */
  protected endInThink(at: number): void {
    if (this.thinkOpenedAt !== null) this.note('unterminated-think', this.thinkOpenedAt, at, 'the think block is never closed');
  }

  protected note(kind: StructureNoteKind, start: number, end: number, detail: string): void {
    this.notes.push({ kind, span: { start, end }, detail });
  }

  /** A call is over at `end`: its arguments as read, whether its closing marker came (else why not), kept. */
  protected settleCall(
    call: ParsedCall,
    args: string,
    end: number,
    terminated: boolean,
    why: string,
    unterminated: StructureNoteKind = 'unterminated-call',
  ): void {
    call.arguments = args;
    call.span.end = end;
    call.terminated = terminated;
    if (!terminated) this.note(unterminated, call.span.start, end, why);
    this.calls.push(call);
  }

  /** Announces a call to the client: name (and type) once, before any argument fragment. */
  protected announce(call: ParsedCall): void {
    const fn: { name?: string } = {};
    if (call.name) fn.name = call.name;
    this.out.addCall({ index: call.index, type: 'function', function: fn });
  }
}
