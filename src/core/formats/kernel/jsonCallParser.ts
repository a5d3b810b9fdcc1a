/**
 * The calls of the JSON-object family (Hermes `<tool_call>{…}</tool_call>`, Llama `{"name": …, "parameters": …}`):
 * a call is one JSON object whose `name` string names the tool and whose arguments key (`arguments`, `parameters`)
 * holds the arguments. The object is followed character by character (strings, escapes and nesting respected), so
 * the name goes out as soon as its string closes and the arguments stream as they are written — kept exactly as
 * the model wrote them, not re-serialised. Arguments written before the name wait for it.
 *
 * A body that is not a JSON object is kept whole (trimmed) as the arguments with an empty name, so the invalid-JSON
 * check reports it; text outside the object is content, noted `text-in-section`. A format says where a call opens
 * and closes (its markers, or the object itself) and what closing the object means (`objectClosed`).
 */
import type { ParsedCall } from '../toolCallFormat.ts';
import { isWhitespace, MarkupParser, newCall, type MarkerDef } from './markupParser.ts';
import type { ParserState } from '../toolCallFormat.ts';

/** Where the scan of the call's JSON body stands. */
export type BodyStage =
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

export interface OpenJsonCall {
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

export abstract class JsonCallParser<N extends string> extends MarkupParser<N> {
  protected open: OpenJsonCall | null = null;

  protected constructor(
    table: readonly MarkerDef<N>[],
    initial: ParserState,
    label: string,
    /** The keys of the call object that carry the arguments, in the format's order of preference. */
    private readonly argumentKeys: readonly string[],
    /** The detail of the `text-in-section` note for text outside the call's object. */
    private readonly strayTextDetail: string,
  ) {
    super(table, initial, label);
  }

  protected openCall(): ParsedCall | null {
    const open = this.open;
    return open ? { ...open.call, arguments: open.args } : null;
  }

  // ---- text ----------------------------------------------------------------------------------------

  protected callText(text: string, at: number): void {
    const stop = this.scanCall(text, 0, at);
    if (stop < text.length) this.text(text.slice(stop), at + stop);
  }

  /**
   * Reads `text` from index `from` (`at`: the offset of `text[0]`) into the open call; returns where it stopped: the
   * end of the text, or the character after the object when the format closed the call there (`objectClosed`), so a
   * format that reads calls back to back loops instead of recursing once per call.
   */
  protected scanCall(text: string, from: number, at: number): number {
    const c = this.open;
    if (!c) return text.length;
    for (let i = from; i < text.length; i++) {
      if (this.open !== c) return i;
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
          } else if (ch === '}') this.objectClosed(c, pos);
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
          else if (ch === '}') this.objectClosed(c, pos);
          else this.junk(c, ch, pos);
          break;
        case 'after-object':
          this.junk(c, ch, pos);
          break;
      }
    }
    return text.length;
  }

  private startValue(c: OpenJsonCall, ch: string, pos: number): void {
    const key = decodeJsonString(c.key);
    c.role = key === 'name' && !c.nameDone ? 'name' : this.argumentKeys.includes(key) && !c.argumentsDone ? 'arguments' : 'skip';
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

  private valueChar(c: OpenJsonCall, ch: string, pos: number): void {
    if (c.kind === 'scalar') {
      if (ch === ',' || ch === '}') {
        this.endValue(c, pos);
        if (ch === ',') c.stage = 'key-or-end';
        else this.objectClosed(c, pos);
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

  private endValue(c: OpenJsonCall, pos: number): void {
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

  private beginArguments(c: OpenJsonCall, pos: number): void {
    c.call.argumentsSpan = { start: pos, end: pos };
    this.st = 'call-arguments';
  }

  private argumentChar(c: OpenJsonCall, ch: string, pos: number): void {
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

  /** The call's object closed at `pos`: by default the call stays open for what follows until its closing marker. */
  protected objectClosed(c: OpenJsonCall, _pos: number): void {
    c.stage = 'after-object';
    this.st = 'section';
  }

  /** Text inside the tags outside the JSON structure: kept as content and reported. */
  private junk(c: OpenJsonCall, ch: string, pos: number): void {
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
      this.note('text-in-section', pos, pos + 1, this.strayTextDetail);
    }
    c.junkWhitespace = '';
    this.emitContent(ch, pos);
  }

  // ---- calls ---------------------------------------------------------------------------------------

  /** A call opens at [start, end) (its opening marker; empty when the object itself opens it). */
  protected startCall(start: number, end: number): void {
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

  private announceCall(c: OpenJsonCall): void {
    if (c.announced) return;
    c.announced = true;
    this.announce(c.call);
    this.out.addArguments(c.call.index, c.pendingArgs);
    c.pendingArgs = '';
  }

  protected closeCall(end: number, terminated: boolean, why: string): void {
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
export function decodeJsonString(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
