/**
 * The reference streaming parser for Kimi K2 completions.
 *
 * Stance (DESIGN §4): lose nothing and say what happened. Whitespace around ids and arguments is trimmed and
 * noted; ids are kept as written; text between or after sections stays content; calls without a section
 * begin still parse; undeclared names and invalid JSON are kept as they are.
 *
 * Inside `<think>`, a section begin ends the reasoning and its calls are calls: current vLLM's `kimi_k2` reasoning
 * parser, SGLang's Kimi K2 reasoning detector and llama.cpp's Kimi K2 parser all do so (docs/formats/kimi-k2.md).
 * A bare `<|tool_call_begin|>` stays reasoning (vLLM and SGLang keep it there; llama.cpp alone ends at it).
 *
 * Streaming is the only mode: the one-shot form feeds the whole text at once. Text is scanned once; the only
 * text held back between pushes is a possible marker prefix (< 30 chars), a whitespace run whose role depends
 * on what follows, and (with raw-fallback recovery) a candidate `functions.name:0 {…}` call.
 */
import type {
  CharRange,
  MarkerOccurrence,
  ParsedCall,
  ParseResult,
  ParserDelta,
  ParserOptions,
  StreamingParser,
  StructureNote,
  StructureNoteKind,
  ToolCallDelta,
} from '../toolCallFormat.ts';
import { KIMI_MARKERS, nameFromCallId, type KimiMarker } from './kimiK2Markers.ts';
import { findRawFallbackCalls, RawFallbackScanner } from './rawFallbackScanner.ts';

export type KimiK2State = 'content' | 'reasoning' | 'section' | 'call-id' | 'call-arguments';

const MAX_MARKER_LENGTH = Math.max(...KIMI_MARKERS.map((m) => m.text.length));

/** Markers recognised in each state; anything else is text there (e.g. `<think>` inside JSON arguments). */
function recognised(state: KimiK2State, marker: KimiMarker): boolean {
  switch (state) {
    case 'content':
      return true;
    case 'reasoning':
      // Tool markup inside a think block is reasoning text (and reported); only the block's end counts.
      return marker.name === 'think-end' || marker.name === 'section-begin' || marker.name === 'call-begin';
    case 'section':
      return marker.name !== 'think-begin' && marker.name !== 'think-end';
    case 'call-id':
    case 'call-arguments':
      return (
        marker.name === 'section-begin' ||
        marker.name === 'section-end' ||
        marker.name === 'call-begin' ||
        marker.name === 'argument-begin' ||
        marker.name === 'call-end'
      );
  }
}

const isWhitespace = (c: string): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v';

interface OpenCall {
  call: ParsedCall;
  header: string;
  headerStart: number;
  /** Argument text emitted so far (trimmed at the start). */
  args: string;
  /** Whitespace seen after the last emitted argument character, not yet known to be inside the JSON. */
  heldWhitespace: string;
  argsStart: number;
  /** True once id and name went out (at the argument marker). */
  announced: boolean;
  leadingWhitespace: CharRange | null;
}

class DeltaBuilder {
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

  take(): ParserDelta | null {
    if (this.content === '' && this.reasoning === '' && this.calls.length === 0) return null;
    const out: ParserDelta = {};
    if (this.content) out.content = this.content;
    if (this.reasoning) out.reasoning_content = this.reasoning;
    if (this.calls.length) out.tool_calls = this.calls;
    this.content = '';
    this.reasoning = '';
    this.calls = [];
    return out.content !== undefined || out.reasoning_content !== undefined || out.tool_calls ? out : null;
  }
}

export class KimiK2Parser implements StreamingParser {
  private st: KimiK2State;
  /** Text not yet consumed: a possible marker prefix at the end of the last push. */
  private hold = '';
  /** Absolute offset of `hold[0]` in the whole text. */
  private offset = 0;
  private readonly out = new DeltaBuilder();

  private content = '';
  private reasoning = '';
  private readonly calls: ParsedCall[] = [];
  private readonly markers: MarkerOccurrence[] = [];
  private readonly notes: StructureNote[] = [];
  private readonly contentSpans: CharRange[] = [];

  private sectionExplicit = false;
  private sectionWhitespace = '';
  private sectionWhitespaceStart = 0;
  /** The last note is a text-in-section run that later text in the same gap extends. */
  private textInSectionOpen = false;
  private open: OpenCall | null = null;
  private thinkOpenedAt: number | null = null;
  private thinkCallNoted = false;
  /** The note of a section that ended the reasoning, until a `</think>` closes that think block after it. */
  private sectionEndedThink: StructureNote | null = null;
  private readonly fallback: RawFallbackScanner | null;
  private finished = false;

  constructor(private readonly options: ParserOptions = {}) {
    this.st = options.startInReasoning ? 'reasoning' : 'content';
    if (options.startInReasoning) this.thinkOpenedAt = 0;
    this.fallback = options.recoverRawFallback ? new RawFallbackScanner() : null;
  }

  get state(): KimiK2State {
    return this.st;
  }

  push(text: string): ParserDelta | null {
    if (this.finished) throw new Error('KimiK2Parser: push() after finish()');
    // Fast path: most tokens are plain text with nothing held back.
    if (this.hold === '' && text.indexOf('<') < 0) {
      this.text(text, this.offset);
      this.offset += text.length;
      return this.out.take();
    }
    const buf = this.hold + text;
    const base = this.offset;
    let pos = 0;
    for (;;) {
      const lt = buf.indexOf('<', pos);
      if (lt < 0) {
        this.text(buf.slice(pos), base + pos);
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
    const end = this.offset;
    this.flushFallback(end);
    switch (this.st) {
      case 'reasoning':
        if (this.thinkOpenedAt !== null) this.note('unterminated-think', this.thinkOpenedAt, end, 'the think block is never closed');
        break;
      case 'section':
        this.dropSectionWhitespace();
        this.note('missing-section-end', end, end, 'the tool-call section is never closed');
        break;
      case 'call-id':
      case 'call-arguments':
        this.closeCall(end, false, 'the stream ended inside the call');
        this.note('missing-section-end', end, end, 'the tool-call section is never closed');
        break;
      case 'content':
        break;
    }
    if (!this.fallback) this.detectRawFallback();
    this.finished = true;
    return this.out.take();
  }

  result(): ParseResult {
    const calls = this.calls.map((c) => ({ ...c }));
    // A call still open mid-stream is reported as it stands.
    if (this.open && !this.finished) calls.push({ ...this.open.call, arguments: this.open.args });
    return {
      content: this.content === '' ? null : this.content,
      reasoning: this.reasoning === '' ? null : this.reasoning,
      calls,
      markers: [...this.markers],
      notes: [...this.notes],
      contentSpans: [...this.contentSpans],
    };
  }

  private markerAt(buf: string, at: number): KimiMarker | 'partial' | null {
    const rest = buf.length - at;
    let partial = false;
    for (const m of KIMI_MARKERS) {
      if (!recognised(this.st, m)) continue;
      if (rest >= m.text.length) {
        if (buf.startsWith(m.text, at)) return m;
      } else if (m.text.startsWith(buf.slice(at))) {
        partial = true;
      }
    }
    // Only hold back when the tail could still become a marker; rest < MAX_MARKER_LENGTH bounds the hold.
    return partial && rest < MAX_MARKER_LENGTH ? 'partial' : null;
  }

  // ---- text by state -------------------------------------------------------------------------------

  private text(text: string, at: number): void {
    if (!text) return;
    switch (this.st) {
      case 'content':
        if (this.fallback) this.fallbackText(text, at);
        else this.emitContent(text, at);
        return;
      case 'reasoning':
        this.emitReasoning(text);
        return;
      case 'section':
        this.sectionText(text, at);
        return;
      case 'call-id':
        if (this.open) this.open.header += text;
        return;
      case 'call-arguments':
        this.argumentText(text, at);
        return;
    }
  }

  private emitContent(text: string, at: number): void {
    this.content += text;
    this.out.content += text;
    const last = this.contentSpans[this.contentSpans.length - 1];
    if (last && last.end === at) last.end = at + text.length;
    else this.contentSpans.push({ start: at, end: at + text.length });
  }

  private emitReasoning(text: string): void {
    this.reasoning += text;
    this.out.reasoning += text;
  }

  private sectionText(text: string, at: number): void {
    let i = 0;
    while (i < text.length && isWhitespace(text[i] as string)) i++;
    if (this.sectionWhitespace === '' && i > 0) this.sectionWhitespaceStart = at;
    this.sectionWhitespace += text.slice(0, i);
    if (i === text.length) return;
    const ws = this.sectionWhitespace;
    const wsStart = this.sectionWhitespaceStart;
    this.sectionWhitespace = '';
    if (!this.sectionExplicit) {
      // Calls that came without a section begin end where ordinary text resumes.
      this.note('missing-section-end', at + i, at + i, 'tool calls without a section end; text resumes here');
      this.st = 'content';
      if (ws) this.text(ws, wsStart);
      this.text(text.slice(i), at + i);
      return;
    }
    // Real text inside a section: keep it as content and say so (vLLM drops it, SGLang streams it). Its
    // trailing whitespace is held like any whitespace between markers, so the split of the input never matters.
    let j = text.length;
    while (isWhitespace(text[j - 1] as string)) j--;
    const last = this.notes[this.notes.length - 1];
    if (this.textInSectionOpen && last && last.kind === 'text-in-section') last.span.end = at + j;
    else this.note('text-in-section', at + i, at + j, 'text inside the tool-call section, outside any call');
    this.textInSectionOpen = true;
    if (ws) this.emitContent(ws, wsStart);
    this.emitContent(text.slice(i, j), at + i);
    if (j < text.length) {
      this.sectionWhitespace = text.slice(j);
      this.sectionWhitespaceStart = at + j;
    }
  }

  private dropSectionWhitespace(): void {
    if (!this.sectionWhitespace) return;
    const start = this.sectionWhitespaceStart;
    this.note('whitespace', start, start + this.sectionWhitespace.length, 'whitespace between tool-call markers');
    this.sectionWhitespace = '';
  }

  private argumentText(text: string, at: number): void {
    const call = this.open;
    if (!call) return;
    let piece = text;
    let pieceAt = at;
    if (call.args === '') {
      let i = 0;
      while (i < piece.length && isWhitespace(piece[i] as string)) i++;
      if (i > 0) {
        if (call.leadingWhitespace === null) call.leadingWhitespace = { start: at, end: at + i };
        else call.leadingWhitespace.end = at + i;
      }
      piece = piece.slice(i);
      pieceAt += i;
      if (!piece) return;
    }
    let j = piece.length;
    while (j > 0 && isWhitespace(piece[j - 1] as string)) j--;
    if (j === 0) {
      call.heldWhitespace += piece;
      return;
    }
    const fragment = (call.args === '' ? '' : call.heldWhitespace) + piece.slice(0, j);
    if (call.args === '') call.call.argumentsSpan = { start: pieceAt, end: pieceAt + j };
    call.heldWhitespace = piece.slice(j);
    call.args += fragment;
    if (call.call.argumentsSpan) call.call.argumentsSpan.end = pieceAt + j;
    this.out.addCall({ index: call.call.index, function: { arguments: fragment } });
  }

  // ---- markers -------------------------------------------------------------------------------------

  private marker(m: KimiMarker, at: number): void {
    const span = { start: at, end: at + m.text.length };
    this.markers.push({ name: m.name, text: m.text, span });
    this.textInSectionOpen = false;
    this.flushFallback(at);
    switch (this.st) {
      case 'content':
        return this.markerInContent(m, span);
      case 'reasoning':
        return this.markerInReasoning(m, span);
      case 'section':
        return this.markerInSection(m, span);
      case 'call-id':
      case 'call-arguments':
        return this.markerInCall(m, span);
    }
  }

  private markerInContent(m: KimiMarker, span: CharRange): void {
    switch (m.name) {
      case 'section-begin':
        this.st = 'section';
        this.sectionExplicit = true;
        return;
      case 'call-begin':
        this.note('missing-section-begin', span.start, span.end, 'a tool call without a section begin');
        this.sectionExplicit = false;
        this.openCall(span);
        return;
      case 'think-begin':
        this.st = 'reasoning';
        this.thinkOpenedAt = span.start;
        this.thinkCallNoted = false;
        this.sectionEndedThink = null;
        return;
      case 'think-end':
        if (this.sectionEndedThink) {
          // The think block a section interrupted closes after it: not stray, but the engines' non-streaming
          // parsers split at this `</think>` and keep the section as reasoning.
          this.sectionEndedThink.detail = 'closed-later';
          this.sectionEndedThink = null;
          return;
        }
        this.note('stray-marker', span.start, span.end, `${m.text} outside a tool-call section`);
        return;
      case 'end-of-turn':
        return;
      default:
        this.note('stray-marker', span.start, span.end, `${m.text} outside a tool-call section`);
    }
  }

  private markerInReasoning(m: KimiMarker, span: CharRange): void {
    if (m.name === 'think-end') {
      this.st = 'content';
      this.thinkOpenedAt = null;
      return;
    }
    if (m.name === 'section-begin') {
      // The engines' consensus: the section ends the reasoning and its calls reach the client.
      this.note('think-ended-by-section', span.start, span.end, 'unclosed');
      this.sectionEndedThink = this.notes[this.notes.length - 1] as StructureNote;
      this.thinkOpenedAt = null;
      this.st = 'section';
      this.sectionExplicit = true;
      return;
    }
    // Tool markup inside a think block: the reasoning parser swallows it, so the call never reaches the client.
    this.emitReasoning(m.text);
    if (!this.thinkCallNoted) {
      this.note('call-in-think', span.start, span.end, 'tool-call markup inside a <think> block');
      this.thinkCallNoted = true;
    }
  }

  private markerInSection(m: KimiMarker, span: CharRange): void {
    switch (m.name) {
      case 'call-begin':
        this.dropSectionWhitespace();
        this.openCall(span);
        return;
      case 'section-end':
        this.dropSectionWhitespace();
        if (!this.sectionExplicit) this.note('missing-section-begin', span.start, span.end, 'a section end without a section begin');
        this.st = 'content';
        return;
      case 'end-of-turn':
        this.dropSectionWhitespace();
        this.note('missing-section-end', span.start, span.start, 'the tool-call section is never closed');
        this.st = 'content';
        return;
      default:
        this.dropSectionWhitespace();
        this.note('stray-marker', span.start, span.end, `${m.text} between tool calls`);
    }
  }

  private markerInCall(m: KimiMarker, span: CharRange): void {
    const open = this.open;
    switch (m.name) {
      case 'argument-begin':
        if (this.st === 'call-id' && open) {
          this.announce(open, span.start);
          open.argsStart = span.end;
          this.st = 'call-arguments';
        } else {
          this.note('stray-marker', span.start, span.end, 'a second argument marker inside one call');
        }
        return;
      case 'call-end':
        this.closeCall(span.end, true, '');
        this.st = 'section';
        return;
      case 'call-begin':
        this.closeCall(span.start, false, 'a new call begins before this one ended');
        this.openCall(span);
        return;
      case 'section-end':
        this.closeCall(span.start, false, 'the section ends before this call ended');
        if (!this.sectionExplicit) this.note('missing-section-begin', span.start, span.end, 'a section end without a section begin');
        this.st = 'content';
        return;
      case 'section-begin':
        this.closeCall(span.start, false, 'a new section begins before this call ended');
        this.st = 'section';
        this.sectionExplicit = true;
        return;
      default:
        return;
    }
  }

  // ---- calls ---------------------------------------------------------------------------------------

  private openCall(span: CharRange): void {
    const index = this.calls.length;
    this.open = {
      call: {
        index,
        id: '',
        name: '',
        arguments: '',
        span: { start: span.start, end: span.end },
        idSpan: { start: span.end, end: span.end },
        argumentsSpan: null,
        terminated: false,
        source: 'markup',
      },
      header: '',
      headerStart: span.end,
      args: '',
      heldWhitespace: '',
      argsStart: span.end,
      announced: false,
      leadingWhitespace: null,
    };
    this.st = 'call-id';
  }

  /** Id and name go out together, once the header is complete. */
  private announce(open: OpenCall, headerEnd: number): void {
    const raw = open.header;
    const lead = raw.length - raw.trimStart().length;
    const trail = raw.length - raw.trimEnd().length;
    if (lead > 0) {
      const detail = /[\r\n]/u.test(raw.slice(0, lead)) ? 'a newline after <|tool_call_begin|>' : 'whitespace before the call id';
      this.note('whitespace', open.headerStart, open.headerStart + lead, detail);
    }
    if (trail > 0) this.note('whitespace', headerEnd - trail, headerEnd, 'whitespace after the call id');
    const id = raw.trim();
    open.call.id = id;
    open.call.name = nameFromCallId(id);
    open.call.idSpan = { start: open.headerStart + lead, end: headerEnd - trail };
    open.announced = true;
    const fn: { name?: string } = {};
    if (open.call.name) fn.name = open.call.name;
    const delta: ToolCallDelta = { index: open.call.index, type: 'function', function: fn };
    if (id) delta.id = id;
    this.out.addCall(delta);
  }

  private closeCall(end: number, terminated: boolean, why: string): void {
    const open = this.open;
    if (!open) return;
    if (!open.announced) this.announce(open, end);
    if (open.leadingWhitespace) {
      this.note('whitespace', open.leadingWhitespace.start, open.leadingWhitespace.end, 'whitespace after the argument marker');
    }
    if (open.heldWhitespace) {
      const wsEnd = (open.call.argumentsSpan?.end ?? open.argsStart) + open.heldWhitespace.length;
      this.note('whitespace', wsEnd - open.heldWhitespace.length, wsEnd, 'whitespace before the call end marker');
    }
    open.call.arguments = open.args;
    open.call.span.end = end;
    open.call.terminated = terminated;
    if (!terminated) this.note('unterminated-call', open.call.span.start, end, why);
    this.calls.push(open.call);
    this.open = null;
  }

  /** Without recovery, raw fallback calls stay content; find them so the loss is reported. */
  private detectRawFallback(): void {
    let cursor = 0;
    for (const span of this.contentSpans) {
      const length = span.end - span.start;
      for (const hit of findRawFallbackCalls(this.content.slice(cursor, cursor + length))) {
        this.note('raw-fallback', span.start + hit.start, span.start + hit.end, `${hit.id} written without special tokens (left as content)`);
      }
      cursor += length;
    }
  }

  // ---- raw fallback --------------------------------------------------------------------------------

  private fallbackText(text: string, at: number): void {
    const scanner = this.fallback as RawFallbackScanner;
    for (const piece of scanner.feed(text, at)) this.fallbackPiece(piece);
  }

  private flushFallback(at: number): void {
    if (!this.fallback) return;
    for (const piece of this.fallback.flush(at)) this.fallbackPiece(piece);
  }

  private fallbackPiece(piece: ReturnType<RawFallbackScanner['feed']>[number]): void {
    if (piece.kind === 'text') {
      this.emitContent(piece.text, piece.at);
      return;
    }
    const index = this.calls.length;
    const call: ParsedCall = {
      index,
      id: piece.id,
      name: nameFromCallId(piece.id),
      arguments: piece.arguments,
      span: piece.span,
      idSpan: piece.idSpan,
      argumentsSpan: piece.argumentsSpan,
      terminated: true,
      source: 'raw-fallback',
    };
    this.calls.push(call);
    this.note('raw-fallback', piece.span.start, piece.span.end, `${piece.id} written without special tokens (recovered)`);
    this.out.addCall({ index, id: call.id, type: 'function', function: { name: call.name } });
    this.out.addCall({ index, function: { arguments: call.arguments } });
  }

  private note(kind: StructureNoteKind, start: number, end: number, detail: string): void {
    this.notes.push({ kind, span: { start, end }, detail });
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseKimiK2(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new KimiK2Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
