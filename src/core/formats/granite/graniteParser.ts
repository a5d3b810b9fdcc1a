/**
 * The reference streaming parser for Granite's JSON tool calls (vLLM `granite`, `granite-20b-fc`; graniteMarkers.ts).
 * A call is a JSON object `{"name": …, "arguments": {…}}` read by the kernel's JSON-call scanner
 * (kernel/jsonCallParser.ts): the name goes out as soon as its string closes (arguments written first wait for it),
 * the arguments stream as written.
 *
 * - `<|tool_call|>` (Granite 3.0) or `<tool_call>` (Granite 3.1) opens a list: `[`, objects separated by `,`, `]`. Each object is a call when it closes. An object
 *   with no `[` before it is read as a call and noted `missing-section-begin` (vLLM's granite parser wants a list and
 *   reads no call); a list that never closes is noted `unterminated-section` (vLLM's `json.loads` fails: no call).
 * - `<function_call>` opens one object; the next `<function_call>` the next (blanks between them are layout).
 * - Text before the markup is content; text after the calls is content, noted `text-in-section` (vLLM's granite
 *   parser then reads no call at all; granite-20b-fc's `raw_decode` ignores it).
 * - `<|end_of_text|>` or the end of the text inside an object: the call is unterminated. Granite has no reasoning
 *   block here: `startInReasoning` is ignored.
 */
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { isWhitespace, type MarkerDef } from '../kernel/markupParser.ts';
import { JsonCallParser, type OpenJsonCall } from '../kernel/jsonCallParser.ts';
import { ARGUMENT_KEYS, GRANITE_MARKERS, TOOL_CALL_TOKEN, type GraniteMarkerName } from './graniteMarkers.ts';

/** Where a section stands between calls. */
type ListStage = 'before-list' | 'in-list' | 'after-list' | 'objects';

export class GraniteParser extends JsonCallParser<GraniteMarkerName> {
  private stage: ListStage = 'objects';
  /** A call closed since the section (or list) opened, and a `,` followed it. */
  private afterCall = false;
  private separated = false;
  /** Where the open list's `[` is, for the note when it never closes (-1: no list open). */
  private listAt = -1;
  /** The note of the text after the calls, extended while that text runs (-1: none). */
  private trailingNote = -1;
  /** What opened the list: Granite 3.0's `<|tool_call|>` or Granite 3.1's `<tool_call>`, for the notes' words. */
  private listOpener = TOOL_CALL_TOKEN;

  constructor(_options: ParserOptions = {}) {
    super(GRANITE_MARKERS, 'content', 'GraniteParser', ARGUMENT_KEYS, "text inside a call's JSON object that is not JSON");
  }

  /** Every marker is markup wherever it stands, even inside a JSON string. */
  protected recognised(_m: MarkerDef<GraniteMarkerName>): boolean {
    return true;
  }

  // ---- text ----------------------------------------------------------------------------------------

  /** Text in any state, one loop: a call closes at its brace and the next may open right after it (no recursion). */
  protected override text(text: string, at: number): void {
    let i = 0;
    while (i < text.length) {
      if (this.st === 'content') {
        if (this.trailingNote >= 0) (this.notes[this.trailingNote] as { span: { end: number } }).span.end = at + text.length;
        this.emitContentAfterLayout(i === 0 ? text : text.slice(i), at + i);
        return;
      }
      if (this.st === 'section' && !this.open) i = this.sectionFrom(text, i, at);
      else i = this.scanCall(text, i, at);
    }
  }

  /** Between calls: blanks, the list's brackets and commas; `{` opens a call; anything else ends the section. */
  private sectionFrom(text: string, from: number, at: number): number {
    for (let i = from; i < text.length; i++) {
      const ch = text[i] as string;
      if (isWhitespace(ch)) continue;
      const pos = at + i;
      if (this.stage === 'before-list' && ch === '[') {
        this.stage = 'in-list';
        this.listAt = pos;
        continue;
      }
      if (this.stage === 'in-list' && ch === ',' && this.afterCall && !this.separated) {
        this.separated = true;
        continue;
      }
      if (this.stage === 'in-list' && ch === ']') {
        this.stage = 'after-list';
        this.listAt = -1;
        continue;
      }
      if (ch === '{' && this.stage !== 'after-list' && !(this.stage === 'objects' && this.afterCall)) {
        if (this.stage === 'before-list') {
          this.note(
            'missing-section-begin',
            pos,
            pos + 1,
            `a call object after ${this.listOpener} without the list's [ (vLLM's granite parser reads no call)`,
          );
          this.stage = 'objects';
        }
        this.startCall(pos, pos);
        return i;
      }
      this.endSection(pos);
      this.trailingNote = this.notes.length;
      this.note(
        'text-in-section',
        pos,
        pos + 1,
        this.afterCall ? "text after the calls (vLLM's granite parser then reads no call)" : 'text where a call object was expected',
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

  private endSection(at: number): void {
    if (this.listAt >= 0) this.note('unterminated-section', this.listAt, at, `the call list after ${this.listOpener} never closed with ]`);
    this.listAt = -1;
    this.st = 'content';
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: MarkerDef<GraniteMarkerName>, at: number): void {
    const span = this.recordMarker(m, at);
    this.trailingNote = -1;
    if (this.open) {
      this.closeCall(
        span.start,
        false,
        m.name === 'end-of-turn' ? 'the text ends inside the call' : `a new ${m.text} before the call's JSON object closed`,
      );
    }
    if (this.st === 'section') this.endSection(span.start);
    if (m.name === 'end-of-turn') {
      this.st = 'content';
      this.skipLayout = true;
      return;
    }
    this.st = 'section';
    this.stage = m.name === 'list-begin' ? 'before-list' : 'objects';
    if (m.name === 'list-begin') this.listOpener = m.text;
    this.afterCall = false;
    this.separated = false;
  }

  protected override end(at: number): void {
    if (this.st === 'section' && !this.open) this.endSection(at);
    super.end(at);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseGranite(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new GraniteParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
