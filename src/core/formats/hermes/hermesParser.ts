/**
 * The reference streaming parser for Hermes-style completions (`hermes`: Hermes 2 Pro, Qwen2.5, Qwen3).
 *
 * Stance: lose nothing and say what happened. A call is `<tool_call>` + a JSON object + `</tool_call>`; the object
 * is read by the kernel's JSON-call scanner (kernel/jsonCallParser.ts): the name goes out as soon as its string
 * closes and the `arguments` value streams as it is written — kept exactly as the model wrote it, not re-serialised.
 * Whitespace inside the tags is the template's normal layout and is not noted.
 *
 * Edges:
 * - `arguments` before `name`: the fragments wait until the name is known (or the call ends), so the name still
 *   reaches the client first.
 * - a body that is not a JSON object (`<tool_call>get_weather {…}`, a list of calls): name empty, the whole body
 *   (trimmed) kept as the arguments, so the invalid-JSON check reports it.
 * - text inside the tags after the object (an extra `}`): content, noted `text-in-section`.
 * - `</tool_call>` always closes the call, even inside a JSON string (as vLLM and SGLang do).
 * - text between or after calls stays content (vLLM drops it); whitespace right after `</tool_call>` or `</think>`
 *   is layout, not content.
 * - `<tool_call>` inside `<think>` stays reasoning and is noted `call-in-think`.
 *
 * Text is scanned once; the only text held back between pushes is a possible marker prefix (< 14 chars) and
 * whitespace inside an argument value whose role depends on what follows.
 */
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { ARGUMENT_KEYS, HERMES_MARKERS, type HermesMarkerName } from './hermesMarkers.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';
import { JsonCallParser } from '../kernel/jsonCallParser.ts';

export class HermesParser extends JsonCallParser<HermesMarkerName> {
  constructor(options: ParserOptions = {}) {
    super(
      HERMES_MARKERS,
      options.startInReasoning ? 'reasoning' : 'content',
      'HermesParser',
      ARGUMENT_KEYS,
      "text inside <tool_call> outside the call's JSON object",
    );
  }

  protected recognised(m: MarkerDef<HermesMarkerName>): boolean {
    switch (this.st) {
      case 'content':
        return true;
      case 'reasoning':
        // Tool markup inside a think block is reasoning text (and reported); only the block's end counts.
        return m.name === 'think-end' || m.name === 'call-begin';
      default:
        // Inside a call, think tags are text (they may sit in a JSON string).
        return m.name === 'call-begin' || m.name === 'call-end' || m.name === 'end-of-turn';
    }
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: MarkerDef<HermesMarkerName>, at: number): void {
    const span = this.recordMarker(m, at);
    switch (this.st) {
      case 'content':
        return this.markerInContent(m, span.start, span.end);
      case 'reasoning':
        return this.markerInReasoning(m, span.start, span.end);
      default:
        return this.markerInCall(m, span.start, span.end);
    }
  }

  private markerInContent(m: MarkerDef<HermesMarkerName>, start: number, end: number): void {
    if (this.thinkMarkerInContent(m, start, end)) return;
    switch (m.name) {
      case 'call-begin':
        this.startCall(start, end);
        return;
      case 'call-end':
        this.note('stray-marker', start, end, '</tool_call> without <tool_call>');
        return;
      case 'end-of-turn':
        return;
    }
  }

  private markerInReasoning(m: MarkerDef<HermesMarkerName>, start: number, end: number): void {
    // Whitespace right after `</think>` is layout.
    if (this.markerInThink(m, start, end, m.name === 'think-end')) this.skipLayout = true;
  }

  private markerInCall(m: MarkerDef<HermesMarkerName>, start: number, end: number): void {
    switch (m.name) {
      case 'call-end':
        this.closeCall(end, true, '');
        this.st = 'content';
        this.skipLayout = true;
        return;
      case 'call-begin':
        this.closeCall(start, false, 'a new <tool_call> begins before this one ended');
        this.startCall(start, end);
        return;
      default:
        this.closeCall(start, false, 'the turn ends inside the call');
        this.st = 'content';
        return;
    }
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseHermes(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new HermesParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
