/**
 * The reference parser of the "sectioned call" family: a section of calls, each a header (an id or a name), a
 * separator and JSON arguments, with an optional `<think>` block before it. Kimi K2 and DeepSeek-V3.1 are two
 * configurations of it (their markers, how a header names the call, and how notes spell the markers).
 *
 * Stance (DESIGN §4): lose nothing and say what happened. Whitespace around headers and arguments is trimmed and
 * noted; headers are kept as written; text between or after sections stays content (and text inside a section is
 * noted); calls without a section begin still parse; undeclared names and invalid JSON are kept as they are.
 *
 * Held back between pushes, beyond the kernel's marker prefix: a whitespace run whose role depends on what follows
 * (between markers, or after the last argument character), so the cut of the input never changes a call.
 */
import { isWhitespace, MarkupParser, newCall, type MarkerDef } from './markupParser.ts';
import { StreamedArguments } from './streamedArguments.ts';
import type { CharRange, ParsedCall, ParserOptions, ToolCallDelta } from '../toolCallFormat.ts';

export type SectionedMarkerName =
  'section-begin' | 'section-end' | 'call-begin' | 'argument-begin' | 'call-end' | 'think-begin' | 'think-end' | 'end-of-turn';

type Marker = MarkerDef<SectionedMarkerName>;

/** How notes name the format's markup: the words a user reads in a finding's detail. */
export interface SectionedWording {
  sectionNeverClosed: string;
  textResumes: string;
  callWithoutSectionBegin: string;
  sectionEndWithoutBegin: string;
  secondSeparator: string;
  newlineAfterCallBegin: string;
  whitespaceBeforeHeader: string;
  whitespaceAfterHeader: string;
  whitespaceAfterSeparator: string;
  whitespaceBeforeCallEnd: string;
  /** `</think>` with no `<think>` open; absent: the generic "outside a tool-call section". */
  strayThinkEnd?: string;
}

export interface SectionedCallConfig {
  label: string;
  markers: readonly Marker[];
  /** The call's id (empty when the format writes none) and tool name, from the trimmed header. */
  header(text: string): { id: string; name: string };
  /** The end-of-turn token inside a call ends the call and the section (DeepSeek's template), else it is text. */
  turnEndClosesCall: boolean;
  /**
   * A section begin inside `<think>` ends the reasoning and its calls are calls (Kimi K2: the consensus of current
   * vLLM, SGLang and llama.cpp); else tool markup in a think block stays reasoning.
   */
  sectionBeginEndsThink: boolean;
  wording: SectionedWording;
}

interface OpenCall {
  call: ParsedCall;
  header: string;
  headerStart: number;
  args: StreamedArguments;
  argsStart: number;
  /** True once id and name went out (at the separator). */
  announced: boolean;
}

const CALL_MARKERS: ReadonlySet<SectionedMarkerName> = new Set([
  'section-begin',
  'section-end',
  'call-begin',
  'argument-begin',
  'call-end',
]);

export class SectionedCallParser extends MarkupParser<SectionedMarkerName> {
  private sectionExplicit = false;
  private sectionWhitespace = '';
  private sectionWhitespaceStart = 0;
  /** The last note is a text-in-section run that later text in the same gap extends. */
  private textInSectionOpen = false;
  private open: OpenCall | null = null;

  constructor(
    private readonly config: SectionedCallConfig,
    options: ParserOptions = {},
  ) {
    super(config.markers, options.startInReasoning ? 'reasoning' : 'content', config.label);
  }

  /** Markers recognised in each state; anything else is text there (e.g. `<think>` inside JSON arguments). */
  protected recognised(m: Marker): boolean {
    switch (this.st) {
      case 'content':
        return true;
      case 'reasoning':
        // Tool markup inside a think block is reasoning text (and reported); only the block's end counts.
        return m.name === 'think-end' || m.name === 'section-begin' || m.name === 'call-begin';
      case 'section':
        return m.name !== 'think-begin' && m.name !== 'think-end';
      case 'call-id':
      case 'call-arguments':
        return CALL_MARKERS.has(m.name) || (m.name === 'end-of-turn' && this.config.turnEndClosesCall);
    }
  }

  protected openCall(): ParsedCall | null {
    const o = this.open;
    return o ? { ...o.call, arguments: o.args.text } : null;
  }

  protected endInCall(at: number): void {
    if (this.st === 'section') this.dropSectionWhitespace();
    else this.closeCall(at, false, 'the stream ended inside the call');
    this.note('missing-section-end', at, at, this.config.wording.sectionNeverClosed);
  }

  /** Called before every marker is handled; a format may flush what it holds back (Kimi's raw fallback). */
  protected beforeMarker(_at: number): void {}

  // ---- text ----------------------------------------------------------------------------------------

  protected callText(text: string, at: number): void {
    const open = this.open;
    if (!open) return;
    if (this.st === 'call-id') open.header += text;
    else this.out.addArguments(open.call.index, open.args.add(open.call, text, at));
  }

  protected override sectionText(text: string, at: number): void {
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
      this.note('missing-section-end', at + i, at + i, this.config.wording.textResumes);
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

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: Marker, at: number): void {
    const span = this.recordMarker(m, at);
    this.textInSectionOpen = false;
    this.beforeMarker(at);
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
    const words = this.config.wording;
    switch (m.name) {
      case 'section-begin':
        this.st = 'section';
        this.sectionExplicit = true;
        return;
      case 'call-begin':
        this.note('missing-section-begin', span.start, span.end, words.callWithoutSectionBegin);
        this.sectionExplicit = false;
        this.openNewCall(span);
        return;
      case 'think-begin':
        this.openThink(span.start);
        return;
      case 'think-end':
        if (this.thinkClosedLater()) return;
        this.note('stray-marker', span.start, span.end, words.strayThinkEnd ?? `${m.text} outside a tool-call section`);
        return;
      case 'end-of-turn':
        return;
      default:
        this.note('stray-marker', span.start, span.end, `${m.text} outside a tool-call section`);
    }
  }

  private markerInReasoning(m: Marker, span: CharRange): void {
    if (m.name === 'section-begin' && this.config.sectionBeginEndsThink) {
      this.thinkEndedBy(span.start, span.end, 'section');
      this.sectionExplicit = true;
      return;
    }
    this.markerInThink(m, span.start, span.end, m.name === 'think-end');
  }

  private markerInSection(m: Marker, span: CharRange): void {
    const words = this.config.wording;
    switch (m.name) {
      case 'call-begin':
        this.dropSectionWhitespace();
        this.openNewCall(span);
        return;
      case 'section-end':
        this.dropSectionWhitespace();
        if (!this.sectionExplicit) this.note('missing-section-begin', span.start, span.end, words.sectionEndWithoutBegin);
        this.st = 'content';
        return;
      case 'end-of-turn':
        this.dropSectionWhitespace();
        this.note('missing-section-end', span.start, span.start, words.sectionNeverClosed);
        this.st = 'content';
        return;
      default:
        this.dropSectionWhitespace();
        this.note('stray-marker', span.start, span.end, `${m.text} between tool calls`);
    }
  }

  private markerInCall(m: Marker, span: CharRange): void {
    const words = this.config.wording;
    const open = this.open;
    switch (m.name) {
      case 'argument-begin':
        if (this.st === 'call-id' && open) {
          this.announceOpen(open, span.start);
          open.argsStart = span.end;
          this.st = 'call-arguments';
        } else {
          this.note('stray-marker', span.start, span.end, words.secondSeparator);
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
        if (!this.sectionExplicit) this.note('missing-section-begin', span.start, span.end, words.sectionEndWithoutBegin);
        this.st = 'content';
        return;
      case 'section-begin':
        this.closeCall(span.start, false, 'a new section begins before this call ended');
        this.st = 'section';
        this.sectionExplicit = true;
        return;
      case 'end-of-turn':
        this.closeCall(span.start, false, 'the turn ends inside the call');
        this.note('missing-section-end', span.start, span.start, words.sectionNeverClosed);
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
      args: new StreamedArguments(),
      argsStart: span.end,
      announced: false,
    };
    this.st = 'call-id';
  }

  /** Id (when the format writes one) and name go out together, once the header is complete. */
  private announceOpen(open: OpenCall, headerEnd: number): void {
    const words = this.config.wording;
    const raw = open.header;
    const lead = raw.length - raw.trimStart().length;
    const trail = raw.length - raw.trimEnd().length;
    if (lead > 0) {
      const detail = /[\r\n]/u.test(raw.slice(0, lead)) ? words.newlineAfterCallBegin : words.whitespaceBeforeHeader;
      this.note('whitespace', open.headerStart, open.headerStart + lead, detail);
    }
    if (trail > 0) this.note('whitespace', headerEnd - trail, headerEnd, words.whitespaceAfterHeader);
    const { id, name } = this.config.header(raw.trim());
    open.call.id = id;
    open.call.name = name;
    open.call.idSpan = { start: open.headerStart + lead, end: headerEnd - trail };
    open.announced = true;
    const fn: { name?: string } = {};
    if (name) fn.name = name;
    const delta: ToolCallDelta = { index: open.call.index, type: 'function', function: fn };
    if (id) delta.id = id;
    this.out.addCall(delta);
  }

  private closeCall(end: number, terminated: boolean, why: string): void {
    const words = this.config.wording;
    const open = this.open;
    if (!open) return;
    if (!open.announced) this.announceOpen(open, end);
    const { args } = open;
    if (args.leading) this.note('whitespace', args.leading.start, args.leading.end, words.whitespaceAfterSeparator);
    if (args.held) {
      const wsEnd = (open.call.argumentsSpan?.end ?? open.argsStart) + args.held.length;
      this.note('whitespace', wsEnd - args.held.length, wsEnd, words.whitespaceBeforeCallEnd);
    }
    this.settleCall(open.call, args.text, end, terminated, why);
    this.open = null;
  }
}
