/**
 * The reference streaming parser for gpt-oss Harmony completions (`harmony`).
 *
 * Each message is a header (role, `<|channel|>` name, optional `to=` recipient and content type) then
 * `<|message|>` and a body ending in `<|end|>`, `<|call|>` or `<|return|>`. The body goes by its header:
 * a recipient makes it a tool call (arguments = the body, trimmed), the `analysis` channel is reasoning, `final`
 * and recipient-less `commentary` (preambles) are content. Reasoning and content of several messages concatenate.
 *
 * Edges:
 * - the completion starts inside the first header (the prompt ended with `<|start|>assistant`); text before the
 *   first marker is header when a marker follows within 64 characters on the same line, else it is text outside
 *   any message: content, noted `text-in-section` (openai_harmony, behind vLLM, fails on it).
 * - the recipient counts in the role part and in the channel part; `functions.` is stripped, nothing else
 *   (SGLang keeps only the last dotted segment); other recipients stay calls, so an unknown tool is reported.
 * - a call whose content type is not given (`<|constrain|>json` missing) still parses (SGLang drops it).
 * - a call on the `analysis` channel is still a call (llama.cpp and vLLM agree; SGLang drops it).
 * - a call ended by `<|end|>` or `<|return|>` instead of `<|call|>` is accepted; one cut off is unterminated.
 * - text between messages: content, noted; a header without `<|start|>`, or a marker out of place: noted.
 *
 * All markers are special tokens and always markup. Held back between pushes: a possible marker prefix (< 14
 * chars), the first header (< 64 chars), a header until its `<|message|>`, and whitespace at the end of arguments.
 */
import { isWhitespace, leadingWhitespace, MarkupParser, newCall, type MarkerDef } from '../kernel/markupParser.ts';
import { StreamedArguments } from '../kernel/streamedArguments.ts';
import type { ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { FUNCTIONS_PREFIX, HARMONY_MARKERS, type HarmonyMarkerName } from './harmonyMarkers.ts';

type Marker = MarkerDef<HarmonyMarkerName>;

/** Longest run of text before the first marker still read as the first message's header. */
export const MAX_LEADING_HEADER = 64;

type Phase = 'lead' | 'header' | 'body' | 'between';

interface HeaderPart {
  kind: 'role' | 'channel' | 'constrain';
  text: string;
  at: number;
}

interface Header {
  start: number;
  parts: HeaderPart[];
  /** `to=` seen: the message is a call (for the timeline state). */
  addressed: boolean;
}

interface ParsedHeader {
  channel: string;
  recipient: string | null;
  recipientAt: number;
  contentType: string | null;
}

interface OpenCall {
  call: ParsedCall;
  args: StreamedArguments;
}

const CHANNELS = new Set(['analysis', 'commentary', 'final']);

export class HarmonyParser extends MarkupParser<HarmonyMarkerName> {
  private phase: Phase = 'lead';
  private header: Header = { start: 0, parts: [{ kind: 'role', text: '', at: 0 }], addressed: false };
  private body: 'call' | 'reasoning' | 'content' = 'content';
  private bodyStart = 0;
  private open: OpenCall | null = null;
  /** The note reporting the current run of text outside messages. */
  private looseNote = -1;
  /** Whitespace outside messages, emitted only if text follows it before the next marker. */
  private looseWhitespace = '';
  private looseWhitespaceAt = 0;

  constructor(_options: ParserOptions = {}) {
    super(HARMONY_MARKERS, 'section', 'HarmonyParser');
  }

  protected recognised(): boolean {
    return true;
  }

  protected openCall(): ParsedCall | null {
    const o = this.open;
    return o ? { ...o.call, arguments: o.args.text } : null;
  }

  // ---- text ----------------------------------------------------------------------------------------

  /** Harmony's text follows its message phases (header, body, between messages), not the shared states. */
  protected override text(text: string, at: number): void {
    switch (this.phase) {
      case 'lead': {
        const part = this.header.parts[0] as HeaderPart;
        part.text += text;
        const lead = part.text.trimStart();
        if (lead.includes('\n') || lead.length > MAX_LEADING_HEADER) {
          // Not a header: text outside any message.
          const loose = part.text;
          this.phase = 'between';
          this.st = 'section';
          this.looseText(loose, part.at);
        } else this.headerAddressed(part, text.length);
        return;
      }
      case 'header': {
        const part = this.header.parts[this.header.parts.length - 1] as HeaderPart;
        part.text += text;
        this.headerAddressed(part, text.length);
        return;
      }
      case 'body':
        if (this.body === 'call') this.callText(text, at);
        else if (this.body === 'reasoning') this.emitReasoning(text);
        else this.emitContent(text, at);
        return;
      case 'between':
        this.looseText(text, at);
        return;
    }
  }

  private headerAddressed(part: HeaderPart, added: number): void {
    if (this.header.addressed) return;
    if (part.text.includes('to=', Math.max(0, part.text.length - added - 2))) {
      this.header.addressed = true;
      this.st = 'call-id';
    }
  }

  /** Text outside any message: content, noted; whitespace there is layout unless text follows it. */
  private looseText(text: string, at: number): void {
    const i = leadingWhitespace(text);
    if (this.looseWhitespace === '' && i > 0) this.looseWhitespaceAt = at;
    this.looseWhitespace += text.slice(0, i);
    if (i === text.length) return;
    let j = text.length;
    while (isWhitespace(text[j - 1] as string)) j--;
    const noted = this.notes[this.looseNote];
    // Whitespace between stray texts is theirs; before the first it is layout.
    if (noted) {
      noted.span.end = at + j;
      if (this.looseWhitespace) this.emitContent(this.looseWhitespace, this.looseWhitespaceAt);
    } else {
      this.looseNote = this.notes.length;
      this.note('text-in-section', at + i, at + j, 'text outside any Harmony message (openai_harmony expects <|start|> here)');
    }
    this.emitContent(text.slice(i, j), at + i);
    this.looseWhitespace = text.slice(j);
    this.looseWhitespaceAt = at + j;
  }

  protected endInCall(at: number): void {
    this.closeCall(at, false, 'the call runs to the end of the completion without <|call|>', true);
  }

  /** A call's body: its arguments. */
  protected callText(text: string, at: number): void {
    const o = this.open;
    if (o) this.out.addArguments(o.call.index, o.args.add(o.call, text, at));
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: Marker, at: number): void {
    const span = this.recordMarker(m, at);
    const { start, end } = span;
    switch (this.phase) {
      case 'lead':
        return this.markerInLead(m, start, end);
      case 'header':
        return this.markerInHeader(m, start, end);
      case 'body':
        return this.markerInBody(m, start, end);
      case 'between':
        return this.markerBetween(m, start, end);
    }
  }

  private markerInLead(m: Marker, start: number, end: number): void {
    switch (m.name) {
      case 'channel':
      case 'constrain':
      case 'message':
        // The text so far was the first message's header (its `<|start|>assistant` is in the prompt).
        this.phase = 'header';
        return this.markerInHeader(m, start, end);
      default: {
        // Not a header after all.
        const part = this.header.parts[0] as HeaderPart;
        this.phase = 'between';
        this.st = 'section';
        if (part.text) this.looseText(part.text, part.at);
        return this.markerBetween(m, start, end);
      }
    }
  }

  private markerInHeader(m: Marker, start: number, end: number): void {
    switch (m.name) {
      case 'channel':
        this.header.parts.push({ kind: 'channel', text: '', at: end });
        return;
      case 'constrain':
        this.header.parts.push({ kind: 'constrain', text: '', at: end });
        return;
      case 'message':
        return this.openBody(end);
      case 'start':
        this.headerWithoutMessage(start, `${m.text} before the header's <|message|>`);
        return this.beginHeader(start, 'role', end);
      default:
        this.headerWithoutMessage(start, `${m.text} ends a message header that has no <|message|>`);
        this.note('stray-marker', start, end, `${m.text} ends a message header that has no <|message|>`);
        this.toBetween();
        return;
    }
  }

  /** A header that never reached `<|message|>`: a call addressed in it is reported unterminated. */
  private headerWithoutMessage(at: number, why: string): void {
    const h = this.readHeader();
    if (h.recipient === null) return;
    this.startCall(h, at);
    this.closeCall(at, false, why);
  }

  private markerInBody(m: Marker, start: number, end: number): void {
    switch (m.name) {
      case 'end':
      case 'call':
      case 'return':
        if (this.body === 'call') this.closeCall(end, true, '');
        this.toBetween();
        return;
      case 'start':
        this.endBodyEarly(start, 'a new message starts before this call ended');
        return this.beginHeader(start, 'role', end);
      case 'channel':
        this.endBodyEarly(start, 'a new message starts before this call ended');
        this.note('stray-marker', start, end, '<|channel|> without <|start|>: a new message header inside a message');
        return this.beginHeader(start, 'channel', end);
      default:
        this.note('stray-marker', start, end, `${m.text} inside a message body`);
        return;
    }
  }

  private markerBetween(m: Marker, start: number, end: number): void {
    this.looseNote = -1;
    this.looseWhitespace = '';
    switch (m.name) {
      case 'start':
        return this.beginHeader(start, 'role', end);
      case 'channel':
        this.note('stray-marker', start, end, '<|channel|> without <|start|>: a message header with no start token');
        return this.beginHeader(start, 'channel', end);
      case 'message':
        this.note('stray-marker', start, end, '<|message|> without a header');
        this.header = { start, parts: [{ kind: 'role', text: '', at: start }], addressed: false };
        return this.openBody(end);
      default:
        this.note('stray-marker', start, end, `${m.text} outside a message`);
        return;
    }
  }

  private endBodyEarly(at: number, why: string): void {
    if (this.body === 'call') this.closeCall(at, false, why);
  }

  private beginHeader(start: number, kind: 'role' | 'channel', end: number): void {
    this.phase = 'header';
    this.st = 'section';
    this.header = { start, parts: [{ kind, text: '', at: end }], addressed: false };
  }

  private toBetween(): void {
    this.phase = 'between';
    this.st = 'section';
    this.looseNote = -1;
  }

  // ---- headers and bodies --------------------------------------------------------------------------

  private readHeader(): ParsedHeader {
    const out: ParsedHeader = { channel: '', recipient: null, recipientAt: 0, contentType: null };
    let role = '';
    for (const part of this.header.parts) {
      const re = /\S+/gu;
      let first = true;
      for (let m = re.exec(part.text); m; m = re.exec(part.text)) {
        const word = m[0];
        if (word.startsWith('to=')) {
          if (out.recipient === null) {
            out.recipient = word.slice(3);
            out.recipientAt = part.at + m.index + 3;
          }
          continue;
        }
        if (part.kind === 'role') {
          if (first) role = word;
        } else if (part.kind === 'channel') {
          if (first) out.channel = word;
          else if (out.contentType === null) out.contentType = word;
        } else if (out.contentType === null) out.contentType = word;
        first = false;
      }
    }
    // A completion that starts after `<|channel|>` (or a header with the channel as its only word).
    if (!out.channel && CHANNELS.has(role)) out.channel = role;
    return out;
  }

  private openBody(at: number): void {
    const h = this.readHeader();
    this.phase = 'body';
    this.bodyStart = at;
    if (h.recipient !== null) {
      this.body = 'call';
      this.startCall(h, at);
      this.st = 'call-arguments';
    } else if (h.channel === 'analysis') {
      this.body = 'reasoning';
      this.st = 'reasoning';
    } else {
      this.body = 'content';
      this.st = 'content';
    }
  }

  private startCall(h: ParsedHeader, bodyAt: number): void {
    const recipient = h.recipient ?? '';
    const prefixed = recipient.startsWith(FUNCTIONS_PREFIX);
    const name = prefixed ? recipient.slice(FUNCTIONS_PREFIX.length) : recipient;
    const nameAt = h.recipientAt + (prefixed ? FUNCTIONS_PREFIX.length : 0);
    const call = newCall(this.calls.length, this.header.start, bodyAt);
    call.name = name;
    call.idSpan = { start: nameAt, end: nameAt + name.length };
    this.open = { call, args: new StreamedArguments() };
    this.announce(call);
  }

  private closeCall(end: number, terminated: boolean, why: string, atEnd = false): void {
    const o = this.open;
    if (!o) return;
    // `<|call|>` is a stop token: many servers strip it, so a call that ends the completion may well be complete.
    this.settleCall(o.call, o.args.text, end, terminated, why, atEnd ? 'call-at-end' : 'unterminated-call');
    this.open = null;
  }

  /** Harmony's stream ends in one of its message phases, not in the shared states. */
  protected override end(at: number): void {
    switch (this.phase) {
      case 'lead': {
        const part = this.header.parts[0] as HeaderPart;
        if (part.text) this.looseText(part.text, part.at);
        return;
      }
      case 'header':
        this.headerWithoutMessage(at, "the stream ended inside the call's header");
        return;
      case 'body':
        if (this.body === 'call') this.endInCall(at);
        else if (this.body === 'reasoning') this.note('unterminated-think', this.bodyStart, at, 'the analysis message is never closed');
        return;
      case 'between':
        return;
    }
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseHarmony(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new HarmonyParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
