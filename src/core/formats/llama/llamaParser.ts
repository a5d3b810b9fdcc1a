/**
 * The reference streaming parser for Llama 3.x / 4 JSON tool calls (vLLM `llama3_json` / `llama4_json`, SGLang
 * `llama3`, llama.cpp's Llama 3.x format).
 *
 * Stance: lose nothing and say what happened. A call is a JSON object `{"name": …, "parameters": {…}}` read by the
 * kernel's JSON-call scanner (kernel/jsonCallParser.ts): the name goes out as soon as its string closes, the
 * arguments stream as written. Calls open in two places:
 * - after `<|python_tag|>` (Llama 3.x) or Llama 4's `<|python_start|>`, anywhere: text before the tag is content;
 *   `<|python_end|>` closes Llama 4's block (before the object closed: the call is unterminated);
 * - bare, when the completion's first non-blank character is `{` (how Llama 3.2/3.3/4 answer with a call; vLLM's
 *   streaming parser and llama.cpp read calls only there). The blank before it is layout.
 *
 * Edges:
 * - calls in a row, separated by `;` or only by blanks: each its own call; the object closing ends the call.
 * - text after the calls (or after `<|python_tag|>` that is not a JSON object, e.g. a built-in tool's
 *   `brave_search.call(…)`): content, noted `text-in-section` (vLLM's llama3_json drops it or never returns it).
 * - a `{"name": …}` object after prose without `<|python_tag|>` stays content, as vLLM's streaming parser and
 *   llama.cpp leave it (vLLM's non-streaming parser takes it; raw-fallback-format reports it).
 * - the turn's end (`<|eot_id|>`, `<|eom_id|>`, `<|eot|>`, `<|eom|>`) inside an object, or the end of the text:
 *   the call is unterminated. Llama has no reasoning block: `startInReasoning` is ignored.
 *
 * Text is scanned once; held back between pushes: a possible marker prefix (< 16 chars), whitespace at the very
 * start (layout or content depends on what follows), and whitespace inside an argument value.
 */
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { isWhitespace, type MarkerDef } from '../kernel/markupParser.ts';
import { JsonCallParser, type OpenJsonCall } from '../kernel/jsonCallParser.ts';
import { ARGUMENT_KEYS, CALL_SEPARATOR, LLAMA_MARKERS, PYTHON_TAG, type LlamaMarkerName } from './llamaMarkers.ts';

export class LlamaParser extends JsonCallParser<LlamaMarkerName> {
  /** Nothing but blanks so far: a `{` now opens a bare call. */
  private atStart = true;
  /** The blanks at the very start, and where they began. */
  private lead = '';
  private leadAt = 0;
  /** In a section: a call closed since the section opened, and a `;` followed it. */
  private afterCall = false;
  private separated = false;
  /** The note of the text after the calls, extended while that text runs (-1: none). */
  private trailingNote = -1;

  constructor(_options: ParserOptions = {}) {
    super(LLAMA_MARKERS, 'content', 'LlamaParser', ARGUMENT_KEYS, "text inside a call's JSON object that is not JSON");
  }

  /** Every marker is a special token: it counts wherever it stands, even inside a JSON string. */
  protected recognised(_m: MarkerDef<LlamaMarkerName>): boolean {
    return true;
  }

  // ---- text ----------------------------------------------------------------------------------------

  /**
   * Text in any state, read in one loop: a call closes at its own brace and the next may open right after it, so
   * each state's reader returns where it stopped and the loop goes on (no recursion per call).
   */
  protected override text(text: string, at: number): void {
    let i = 0;
    while (i < text.length) {
      if (this.st === 'content') i = this.contentFrom(text, i, at);
      else if (this.st === 'section' && !this.open) i = this.sectionFrom(text, i, at);
      // In a call, or an object that broke (text inside it): the scanner keeps it until the turn ends.
      else i = this.scanCall(text, i, at);
    }
  }

  /** Content from `from`: all of it, unless the answer opens with `{` (a bare call), where it stops. */
  private contentFrom(text: string, from: number, at: number): number {
    if (this.atStart) {
      let i = from;
      while (i < text.length && isWhitespace(text[i] as string)) i++;
      if (i === text.length) {
        if (this.lead === '') this.leadAt = at + from;
        this.lead += text.slice(from);
        return i;
      }
      this.atStart = false;
      if (text[i] === '{') {
        // The bare form: the blanks before it are layout.
        this.lead = '';
        this.openSection();
        return i;
      }
      this.flushLead();
    }
    if (this.trailingNote >= 0) (this.notes[this.trailingNote] as { span: { end: number } }).span.end = at + text.length;
    this.emitContentAfterLayout(from === 0 ? text : text.slice(from), at + from);
    return text.length;
  }

  /** Between calls: blanks and one `;` separate them, `{` opens the next; anything else ends the section. */
  private sectionFrom(text: string, from: number, at: number): number {
    for (let i = from; i < text.length; i++) {
      const ch = text[i] as string;
      if (isWhitespace(ch)) continue;
      if (ch === CALL_SEPARATOR && this.afterCall && !this.separated) {
        this.separated = true;
        continue;
      }
      if (ch === '{') {
        this.startCall(at + i, at + i);
        return i;
      }
      this.st = 'content';
      this.trailingNote = this.notes.length;
      this.note(
        'text-in-section',
        at + i,
        at + i + 1,
        this.afterCall
          ? "text after the calls' JSON (vLLM's llama3_json parser drops it)"
          : `text after ${PYTHON_TAG} that is not a call's JSON object`,
      );
      return i;
    }
    return text.length;
  }

  protected override objectClosed(_c: OpenJsonCall, pos: number): void {
    // No closing marker: the object's last brace ends the call.
    this.closeCall(pos + 1, true, '');
    this.st = 'section';
    this.afterCall = true;
    this.separated = false;
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: MarkerDef<LlamaMarkerName>, at: number): void {
    const span = this.recordMarker(m, at);
    this.trailingNote = -1;
    if (this.atStart) {
      // Blanks before the first marker are layout.
      this.atStart = false;
      this.lead = '';
    }
    if (this.open) {
      this.closeCall(
        span.start,
        false,
        m.name === 'call-begin'
          ? `a new ${m.text} before the call's JSON object closed`
          : m.name === 'call-end'
            ? `${m.text} before the call's JSON object closed`
            : 'the turn ends inside the call',
      );
    }
    if (m.name === 'call-begin') this.openSection();
    else {
      this.st = 'content';
      this.skipLayout = true;
    }
  }

  private openSection(): void {
    this.st = 'section';
    this.afterCall = false;
    this.separated = false;
  }

  private flushLead(): void {
    if (this.lead) this.emitContent(this.lead, this.leadAt);
    this.lead = '';
  }

  protected override end(at: number): void {
    if (this.atStart) this.flushLead();
    super.end(at);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseLlama(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new LlamaParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
