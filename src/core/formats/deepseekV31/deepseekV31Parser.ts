/**
 * The reference streaming parser for DeepSeek-V3.1 completions (`deepseek_v31`).
 *
 * Same design as the Kimi K2 parser (the two formats share their shape: a section of calls, each a header, a
 * separator and JSON arguments): lose nothing and say what happened.
 *
 * Edges:
 * - the function name is the header between `<｜tool▁call▁begin｜>` and `<｜tool▁sep｜>`, trimmed; whitespace around
 *   it and the arguments is noted (vLLM keeps it in the name, so `"\nget_weather"` is an unknown tool there).
 * - arguments are kept as written (trimmed), invalid JSON included; multi-line JSON is fine here.
 * - calls without `<｜tool▁calls▁begin｜>` still parse (noted); a section never closed is noted.
 * - text inside the section outside any call stays content (noted); text after the section stays content
 *   (vLLM's non-streaming parser drops it).
 * - `</think>` with no `<think>`: the template opened the think block; parse with `startInReasoning`.
 *
 * Text is scanned once; held back between pushes: a possible marker prefix (< 22 chars) and whitespace whose role
 * depends on what follows.
 */
import { isWhitespace, MarkupParser, newCall, type MarkerDef } from '../hermes/markupParser.ts';
import type { CharRange, ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { DEEPSEEK_V31_MARKERS, type DeepSeekMarkerName } from './deepseekV31Markers.ts';

export type DeepSeekV31State = 'content' | 'reasoning' | 'section' | 'call-id' | 'call-arguments';

type Marker = MarkerDef<DeepSeekMarkerName>;

interface OpenCall {
  call: ParsedCall;
  header: string;
  headerStart: number;
  args: string;
  heldWhitespace: string;
  argsStart: number;
  announced: boolean;
  leadingWhitespace: CharRange | null;
}

export class DeepSeekV31Parser extends MarkupParser<DeepSeekV31State, DeepSeekMarkerName> {
  private sectionExplicit = false;
  private sectionWhitespace = '';
  private sectionWhitespaceStart = 0;
  private textInSectionOpen = false;
  private open: OpenCall | null = null;
  private thinkOpenedAt: number | null = null;
  private thinkCallNoted = false;

  constructor(options: ParserOptions = {}) {
    super(DEEPSEEK_V31_MARKERS, options.startInReasoning ? 'reasoning' : 'content', 'DeepSeekV31Parser');
    if (options.startInReasoning) this.thinkOpenedAt = 0;
  }

  protected recognised(m: Marker): boolean {
    switch (this.st) {
      case 'content':
        return true;
      case 'reasoning':
        return m.name === 'think-end' || m.name === 'section-begin' || m.name === 'call-begin';
      case 'section':
        return m.name !== 'think-begin' && m.name !== 'think-end';
      case 'call-id':
      case 'call-arguments':
        return m.name === 'section-begin' || m.name === 'section-end' || m.name === 'call-begin' || m.name === 'argument-begin' || m.name === 'call-end' || m.name === 'end-of-turn';
    }
  }

  protected openCall(): ParsedCall | null {
    const o = this.open;
    return o ? { ...o.call, span: { ...o.call.span }, idSpan: { ...o.call.idSpan }, argumentsSpan: o.call.argumentsSpan ? { ...o.call.argumentsSpan } : null, arguments: o.args } : null;
  }

  protected end(at: number): void {
    switch (this.st) {
      case 'reasoning':
        if (this.thinkOpenedAt !== null) this.note('unterminated-think', this.thinkOpenedAt, at, 'the think block is never closed');
        break;
      case 'section':
        this.dropSectionWhitespace();
        this.note('missing-section-end', at, at, 'the tool-call section is never closed (no <｜tool▁calls▁end｜>)');
        break;
      case 'call-id':
      case 'call-arguments':
        this.closeCall(at, false, 'the stream ended inside the call');
        this.note('missing-section-end', at, at, 'the tool-call section is never closed (no <｜tool▁calls▁end｜>)');
        break;
      case 'content':
        break;
    }
  }

  // ---- text ----------------------------------------------------------------------------------------

  protected text(text: string, at: number): void {
    switch (this.st) {
      case 'content':
        this.emitContent(text, at);
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
      this.note('missing-section-end', at + i, at + i, 'tool calls without <｜tool▁calls▁end｜>; text resumes here');
      this.st = 'content';
      if (ws) this.text(ws, wsStart);
      this.text(text.slice(i), at + i);
      return;
    }
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
    this.out.addArguments(call.call.index, fragment);
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: Marker, at: number): void {
    const span = this.recordMarker(m, at);
    this.textInSectionOpen = false;
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

  private markerInContent(m: Marker, span: CharRange): void {
    switch (m.name) {
      case 'section-begin':
        this.st = 'section';
        this.sectionExplicit = true;
        return;
      case 'call-begin':
        this.note('missing-section-begin', span.start, span.end, 'a tool call without <｜tool▁calls▁begin｜>');
        this.sectionExplicit = false;
        this.openNewCall(span);
        return;
      case 'think-begin':
        this.st = 'reasoning';
        this.thinkOpenedAt = span.start;
        this.thinkCallNoted = false;
        return;
      case 'end-of-turn':
        return;
      case 'think-end':
        this.note('stray-marker', span.start, span.end, '</think> without <think>');
        return;
      default:
        this.note('stray-marker', span.start, span.end, `${m.text} outside a tool-call section`);
    }
  }

  private markerInReasoning(m: Marker, span: CharRange): void {
    if (m.name === 'think-end') {
      this.st = 'content';
      this.thinkOpenedAt = null;
      return;
    }
    this.emitReasoning(m.text);
    if (!this.thinkCallNoted) {
      this.note('call-in-think', span.start, span.end, 'tool-call markup inside a <think> block');
      this.thinkCallNoted = true;
    }
  }

  private markerInSection(m: Marker, span: CharRange): void {
    switch (m.name) {
      case 'call-begin':
        this.dropSectionWhitespace();
        this.openNewCall(span);
        return;
      case 'section-end':
        this.dropSectionWhitespace();
        if (!this.sectionExplicit) this.note('missing-section-begin', span.start, span.end, 'a section end without <｜tool▁calls▁begin｜>');
        this.st = 'content';
        return;
      case 'end-of-turn':
        this.dropSectionWhitespace();
        this.note('missing-section-end', span.start, span.start, 'the tool-call section is never closed (no <｜tool▁calls▁end｜>)');
        this.st = 'content';
        return;
      default:
        this.dropSectionWhitespace();
        this.note('stray-marker', span.start, span.end, `${m.text} between tool calls`);
    }
  }

  private markerInCall(m: Marker, span: CharRange): void {
    const open = this.open;
    switch (m.name) {
      case 'argument-begin':
        if (this.st === 'call-id' && open) {
          this.announceOpen(open, span.start);
          open.argsStart = span.end;
          this.st = 'call-arguments';
        } else {
          this.note('stray-marker', span.start, span.end, 'a second <｜tool▁sep｜> inside one call');
        }
        return;
      case 'call-end':
        this.closeCall(span.end, true, '');
        this.st = 'section';
        return;
      case 'call-begin':
        this.closeCall(span.start, false, 'a new call begins before this one ended');
        this.openNewCall(span);
        return;
      case 'section-end':
        this.closeCall(span.start, false, 'the section ends before this call ended');
        if (!this.sectionExplicit) this.note('missing-section-begin', span.start, span.end, 'a section end without <｜tool▁calls▁begin｜>');
        this.st = 'content';
        return;
      case 'section-begin':
        this.closeCall(span.start, false, 'a new section begins before this call ended');
        this.st = 'section';
        this.sectionExplicit = true;
        return;
      case 'end-of-turn':
        this.closeCall(span.start, false, 'the turn ends inside the call');
        this.note('missing-section-end', span.start, span.start, 'the tool-call section is never closed (no <｜tool▁calls▁end｜>)');
        this.st = 'content';
        return;
      default:
        return;
    }
  }

  // ---- calls ---------------------------------------------------------------------------------------

  private openNewCall(span: CharRange): void {
    this.open = {
      call: newCall(this.calls.length, span.start, span.end),
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

  /** The name goes out once the header is complete. */
  private announceOpen(open: OpenCall, headerEnd: number): void {
    const raw = open.header;
    const lead = raw.length - raw.trimStart().length;
    const trail = raw.length - raw.trimEnd().length;
    if (lead > 0) {
      const detail = /[\r\n]/u.test(raw.slice(0, lead)) ? 'a newline after <｜tool▁call▁begin｜>' : 'whitespace before the function name';
      this.note('whitespace', open.headerStart, open.headerStart + lead, detail);
    }
    if (trail > 0) this.note('whitespace', headerEnd - trail, headerEnd, 'whitespace after the function name');
    const name = raw.trim();
    open.call.name = name;
    open.call.idSpan = { start: open.headerStart + lead, end: headerEnd - trail };
    open.announced = true;
    this.announce(open.call);
  }

  private closeCall(end: number, terminated: boolean, why: string): void {
    const open = this.open;
    if (!open) return;
    if (!open.announced) this.announceOpen(open, end);
    if (open.leadingWhitespace) this.note('whitespace', open.leadingWhitespace.start, open.leadingWhitespace.end, 'whitespace after <｜tool▁sep｜>');
    if (open.heldWhitespace) {
      const wsEnd = (open.call.argumentsSpan?.end ?? open.argsStart) + open.heldWhitespace.length;
      this.note('whitespace', wsEnd - open.heldWhitespace.length, wsEnd, 'whitespace before <｜tool▁call▁end｜>');
    }
    open.call.arguments = open.args;
    open.call.span.end = end;
    open.call.terminated = terminated;
    if (!terminated) this.note('unterminated-call', open.call.span.start, end, why);
    this.calls.push(open.call);
    this.open = null;
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseDeepSeekV31(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new DeepSeekV31Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
