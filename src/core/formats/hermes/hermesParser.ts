/**
 * The reference streaming parser for Hermes-style completions (`hermes`: Hermes 2 Pro, Qwen2.5, Qwen3).
 *
 * Stance: lose nothing and say what happened. A call is `<tool_call>` + a JSON object + `</tool_call>`; the object
 * is followed character by character (strings, escapes and nesting respected), so the name goes out as soon as its
 * string closes and the `arguments` value streams as it is written — kept exactly as the model wrote it, not
 * re-serialised. Whitespace inside the tags is the template's normal layout and is not noted.
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
import type { ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { ARGUMENT_KEYS, HERMES_MARKERS, type HermesMarkerName } from './hermesMarkers.ts';
import { isWhitespace, MarkupParser, newCall, type MarkerDef } from '../kernel/markupParser.ts';

/** Where the scan of the call's JSON body stands. */
type BodyStage =
  | 'start' // before the first non-space character
  | 'raw' // the body is not a JSON object: all of it is the arguments
  | 'key-or-end' // inside the object, before a key or `}`
  | 'key'
  | 'colon'
  | 'value-start'
  | 'value'
  | 'after-value'
  | 'after-object'; // the object closed (or broke): anything but whitespace is text in the call

type ValueRole = 'name' | 'arguments' | 'skip';

interface OpenCall {
  call: ParsedCall;
  stage: BodyStage;
  key: string;
  keyEscaped: boolean;
  role: ValueRole;
  kind: 'string' | 'container' | 'scalar';
  depth: number;
  inString: boolean;
  escaped: boolean;
  nameRaw: string;
  nameStart: number;
  nameDone: boolean;
  argumentsDone: boolean;
  /** Argument text so far (emitted, or waiting for the name). */
  args: string;
  /** Argument text not yet sent because the name is not known yet. */
  pendingArgs: string;
  /** Whitespace after the last argument character, not yet known to be inside the value. */
  heldWhitespace: string;
  announced: boolean;
  /** Whitespace after the object, emitted as content only if text follows it inside the tags. */
  junkWhitespace: string;
  junkWhitespaceAt: number;
  /** The note that reports this call's stray text, extended as more follows. */
  junkNote: number;
}

export class HermesParser extends MarkupParser<HermesMarkerName> {
  private open: OpenCall | null = null;

  constructor(options: ParserOptions = {}) {
    super(HERMES_MARKERS, options.startInReasoning ? 'reasoning' : 'content', 'HermesParser');
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

  protected openCall(): ParsedCall | null {
    const open = this.open;
    return open ? { ...open.call, arguments: open.args } : null;
  }

  // ---- text ----------------------------------------------------------------------------------------

  protected callText(text: string, at: number): void {
    const c = this.open;
    if (!c) return;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      const pos = at + i;
      switch (c.stage) {
        case 'start':
          if (isWhitespace(ch)) break;
          if (ch === '{') {
            c.stage = 'key-or-end';
            break;
          }
          // Not a JSON object: keep the whole body as the arguments.
          c.stage = 'raw';
          c.role = 'arguments';
          this.beginArguments(c, pos);
          this.argumentChar(c, ch, pos);
          break;
        case 'raw':
          this.argumentChar(c, ch, pos);
          break;
        case 'key-or-end':
          if (isWhitespace(ch) || ch === ',') break;
          if (ch === '"') {
            c.stage = 'key';
            c.key = '';
            c.keyEscaped = false;
          } else if (ch === '}') this.objectClosed(c);
          else this.junk(c, ch, pos);
          break;
        case 'key':
          if (c.keyEscaped) c.keyEscaped = false;
          else if (ch === '\\') c.keyEscaped = true;
          else if (ch === '"') {
            c.stage = 'colon';
            break;
          }
          c.key += ch;
          break;
        case 'colon':
          if (isWhitespace(ch)) break;
          if (ch === ':') c.stage = 'value-start';
          else this.junk(c, ch, pos);
          break;
        case 'value-start':
          if (isWhitespace(ch)) break;
          this.startValue(c, ch, pos);
          break;
        case 'value':
          this.valueChar(c, ch, pos);
          break;
        case 'after-value':
          if (isWhitespace(ch)) break;
          if (ch === ',') c.stage = 'key-or-end';
          else if (ch === '}') this.objectClosed(c);
          else this.junk(c, ch, pos);
          break;
        case 'after-object':
          this.junk(c, ch, pos);
          break;
      }
    }
  }

  private startValue(c: OpenCall, ch: string, pos: number): void {
    const key = decodeJsonString(c.key);
    c.role = key === 'name' && !c.nameDone ? 'name' : ARGUMENT_KEYS.includes(key) && !c.argumentsDone ? 'arguments' : 'skip';
    c.kind = ch === '"' ? 'string' : ch === '{' || ch === '[' ? 'container' : 'scalar';
    if (c.kind === 'scalar' && (ch === ',' || ch === '}')) {
      // `"key": ,` — no value at all.
      this.junk(c, ch, pos);
      return;
    }
    c.depth = c.kind === 'container' ? 1 : 0;
    c.inString = c.kind === 'string';
    c.escaped = false;
    c.stage = 'value';
    if (c.role === 'name' && c.kind !== 'string') c.role = 'skip';
    if (c.role === 'name') {
      c.nameRaw = '';
      c.nameStart = pos + 1;
    } else if (c.role === 'arguments') {
      this.beginArguments(c, pos);
      this.argumentChar(c, ch, pos);
    }
  }

  private valueChar(c: OpenCall, ch: string, pos: number): void {
    if (c.kind === 'scalar') {
      if (ch === ',' || ch === '}') {
        this.endValue(c, pos);
        if (ch === ',') c.stage = 'key-or-end';
        else this.objectClosed(c);
        return;
      }
      if (c.role === 'arguments') this.argumentChar(c, ch, pos);
      return;
    }
    let done = false;
    if (c.inString) {
      if (c.escaped) c.escaped = false;
      else if (ch === '\\') c.escaped = true;
      else if (ch === '"') {
        c.inString = false;
        done = c.kind === 'string';
      }
    } else if (ch === '"') c.inString = true;
    else if (ch === '{' || ch === '[') c.depth++;
    else if (ch === '}' || ch === ']') done = --c.depth === 0;
    if (c.role === 'name' && !done) c.nameRaw += ch;
    if (c.role === 'arguments') this.argumentChar(c, ch, pos);
    if (done) {
      this.endValue(c, pos);
      c.stage = 'after-value';
    }
  }

  private endValue(c: OpenCall, pos: number): void {
    if (c.role === 'name') {
      c.nameDone = true;
      c.call.name = decodeJsonString(c.nameRaw);
      c.call.idSpan = { start: c.nameStart, end: pos };
      this.announceCall(c);
    } else if (c.role === 'arguments') {
      c.argumentsDone = true;
      c.heldWhitespace = '';
      this.st = 'call-id';
    }
    c.role = 'skip';
  }

  private beginArguments(c: OpenCall, pos: number): void {
    c.call.argumentsSpan = { start: pos, end: pos };
    this.st = 'call-arguments';
  }

  private argumentChar(c: OpenCall, ch: string, pos: number): void {
    if (isWhitespace(ch)) {
      c.heldWhitespace += ch;
      return;
    }
    const fragment = c.heldWhitespace + ch;
    c.heldWhitespace = '';
    c.args += fragment;
    if (c.call.argumentsSpan) c.call.argumentsSpan.end = pos + 1;
    if (c.announced) this.out.addArguments(c.call.index, fragment);
    else c.pendingArgs += fragment;
  }

  private objectClosed(c: OpenCall): void {
    c.stage = 'after-object';
    this.st = 'section';
  }

  /** Text inside the tags outside the JSON structure: kept as content and reported. */
  private junk(c: OpenCall, ch: string, pos: number): void {
    if (c.stage !== 'after-object') {
      c.stage = 'after-object';
      this.st = 'section';
    }
    if (isWhitespace(ch)) {
      if (c.junkWhitespace === '') c.junkWhitespaceAt = pos;
      c.junkWhitespace += ch;
      return;
    }
    const noted = this.notes[c.junkNote];
    // Whitespace between stray texts is theirs; before the first it is layout.
    if (noted) {
      noted.span.end = pos + 1;
      if (c.junkWhitespace) this.emitContent(c.junkWhitespace, c.junkWhitespaceAt);
    } else {
      c.junkNote = this.notes.length;
      this.note('text-in-section', pos, pos + 1, 'text inside <tool_call> outside the call\'s JSON object');
    }
    c.junkWhitespace = '';
    this.emitContent(ch, pos);
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

  // ---- calls ---------------------------------------------------------------------------------------

  private startCall(start: number, end: number): void {
    this.open = {
      call: newCall(this.calls.length, start, end),
      stage: 'start',
      key: '',
      keyEscaped: false,
      role: 'skip',
      kind: 'scalar',
      depth: 0,
      inString: false,
      escaped: false,
      nameRaw: '',
      nameStart: end,
      nameDone: false,
      argumentsDone: false,
      args: '',
      pendingArgs: '',
      heldWhitespace: '',
      announced: false,
      junkWhitespace: '',
      junkWhitespaceAt: end,
      junkNote: -1,
    };
    this.st = 'call-id';
  }

  private announceCall(c: OpenCall): void {
    if (c.announced) return;
    c.announced = true;
    this.announce(c.call);
    this.out.addArguments(c.call.index, c.pendingArgs);
    c.pendingArgs = '';
  }

  private closeCall(end: number, terminated: boolean, why: string): void {
    const c = this.open;
    if (!c) return;
    this.announceCall(c);
    this.settleCall(c.call, c.args, end, terminated, why);
    this.open = null;
  }

  protected endInCall(at: number): void {
    this.closeCall(at, false, 'the stream ended inside the call');
    this.st = 'content';
  }
}

/** A JSON string's body (between the quotes) decoded, or as written when it does not decode. */
function decodeJsonString(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseHermes(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new HermesParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
