/**
 * The reference streaming parser for Mistral completions (`mistral`), both layouts (mistralMarkers.ts), read as
 * vLLM's Mistral parser reads them (vllm/parser/mistral.py @ 017e9f4448b700e85ee16023287b025693c72b9e):
 *
 * - v11+: `[TOOL_CALLS]NAME[ARGS]{…}`. The name runs to `[ARGS]`, `[CALL_ID]` or a `{` (vLLM's OPEN_BRACE fallback for
 *   `NAME{…}` without `[ARGS]`); an id after `[CALL_ID]` is the call's id. The arguments are the JSON object as
 *   written, streamed as it arrives, and end where the object closes: text after it is content (vLLM drops it,
 *   gh#48975). A name with no arguments is a call with `{}` (vLLM's engine path). A `{` with no name before it is a
 *   nameless call (vLLM sends name "").
 * - pre-v11: `[TOOL_CALLS]` then a JSON list `[{"name", "arguments"}, …]`: each object is a call when it closes,
 *   its arguments `json.dumps`-ed as vLLM writes them; an object that is no call keeps an empty name and its text.
 * - `[TOOL_CALLS]` inside `[THINK]` ends the reasoning (vLLM's (REASONING, TOOL_CALLS) transition): noted
 *   `think-ended-by-section`; a `[/THINK]` after it closes that block (`closed-later`).
 * - No closer: a call whose object never closes is cut (`unterminated-call`); the next `[TOOL_CALLS]` ends a call.
 */
import { pyJsonRoundTrip } from '../kernel/pythonJson.ts';
import { isWhitespace, leadingWhitespace, MarkupParser, newCall, type MarkerDef } from '../kernel/markupParser.ts';
import type { ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { MISTRAL_SCAN_TABLE, type MistralRole, TOOL_CALLS } from './mistralMarkers.ts';

/** Where a JSON text's scan stands: nesting depth and string state. */
interface JsonScan {
  depth: number;
  inString: boolean;
  escaped: boolean;
}

const freshScan = (): JsonScan => ({ depth: 0, inString: false, escaped: false });

/** One character of a JSON text; true when it closes the top-level value. */
function scanJson(s: JsonScan, ch: string): boolean {
  if (s.inString) {
    if (s.escaped) s.escaped = false;
    else if (ch === '\\') s.escaped = true;
    else if (ch === '"') s.inString = false;
    return false;
  }
  if (ch === '"') s.inString = true;
  else if (ch === '{' || ch === '[') s.depth++;
  else if ((ch === '}' || ch === ']') && --s.depth === 0) return true;
  return false;
}

/** Where the string value of the object's own `"name"` key is written (not a `"name"` inside its arguments). */
function topLevelNameValue(object: string): { start: number; end: number } | null {
  const scan = freshScan();
  const key = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/uy;
  for (let i = 0; i < object.length; i++) {
    const ch = object[i] as string;
    if (ch === '"' && !scan.inString && scan.depth === 1) {
      key.lastIndex = i;
      const m = key.exec(object);
      if (m) {
        const end = i + m[0].length - 1;
        return { start: end - (m[1] as string).length, end };
      }
    }
    scanJson(scan, ch);
  }
  return null;
}

type Phase =
  | 'start' // right after [TOOL_CALLS]: a name, a `{` or the pre-v11 list's `[`
  | 'name'
  | 'id' // after [CALL_ID]
  | 'args-start' // after [ARGS], before the value
  | 'args' // inside the arguments object
  | 'raw' // arguments that are not a JSON object: all text up to the next marker
  | 'list' // inside the pre-v11 list, between objects
  | 'list-object'; // inside one of its objects

interface OpenSection {
  phase: Phase;
  /** Where its `[TOOL_CALLS]` began. */
  begin: number;
  call: ParsedCall | null;
  /** The name is read. */
  nameDone: boolean;
  /** The call went out to the client. */
  named: boolean;
  name: string;
  nameStart: number;
  id: string;
  idStart: number;
  args: string;
  scan: JsonScan;
  /** The pre-v11 object being read, and where it began. */
  object: string;
  objectStart: number;
}

export class MistralParser extends MarkupParser<MistralRole> {
  private open: OpenSection | null = null;

  constructor(options: ParserOptions = {}) {
    super(MISTRAL_SCAN_TABLE, options.startInReasoning ? 'reasoning' : 'content', 'MistralParser');
  }

  protected recognised(m: MarkerDef<MistralRole>): boolean {
    switch (this.st) {
      case 'content':
        return true;
      case 'reasoning':
        return m.name === 'think-end' || m.name === 'call-begin';
      default:
        // Inside a call, the control tokens that shape it; [THINK] there is text.
        return m.name !== 'think-begin' && m.name !== 'think-end';
    }
  }

  protected openCall(): ParsedCall | null {
    const c = this.open?.call;
    return c ? { ...c, arguments: this.open?.args ?? '' } : null;
  }

  // ---- text ----------------------------------------------------------------------------------------

  protected callText(text: string, at: number): void {
    let i = 0;
    while (i < text.length && this.open) i = this.sectionChar(this.open, text, i, at);
    // The object closed mid-text: the rest is content.
    if (i < text.length) this.contentText(text.slice(i), at + i);
  }

  /** Reads from `text[i]`; returns where to go on. */
  private sectionChar(o: OpenSection, text: string, i: number, at: number): number {
    const ch = text[i] as string;
    const pos = at + i;
    switch (o.phase) {
      case 'start':
        if (isWhitespace(ch)) return i + 1;
        if (ch === '[') {
          o.phase = 'list';
          this.st = 'section';
          return i + 1;
        }
        this.ensureCall(o, pos);
        return i;
      case 'name':
      case 'id':
        if (ch === '{') {
          this.announceCall(o);
          o.phase = 'args';
          this.st = 'call-arguments';
          return i;
        }
        if (o.phase === 'name') o.name += ch;
        else o.id += ch;
        return i + 1;
      case 'args-start':
        if (isWhitespace(ch)) return i + 1;
        o.phase = ch === '{' ? 'args' : 'raw';
        return i;
      case 'args': {
        this.argumentChar(o, ch, pos);
        if (scanJson(o.scan, ch)) {
          this.finishCall(o, pos + 1, true);
          this.open = null;
          this.st = 'content';
          this.skipLayout = true;
        }
        return i + 1;
      }
      case 'raw':
        this.argumentChar(o, ch, pos);
        return i + 1;
      case 'list':
        if (isWhitespace(ch) || ch === ',') return i + 1;
        if (ch === '{') {
          o.phase = 'list-object';
          o.object = '';
          o.objectStart = pos;
          o.scan = freshScan();
          this.st = 'call-arguments';
          return i;
        }
        if (ch === ']') {
          this.open = null;
          this.st = 'content';
          this.skipLayout = true;
          return i + 1;
        }
        this.note('text-in-section', pos, pos + 1, `text in the ${TOOL_CALLS} list outside its call objects`);
        this.emitContent(ch, pos);
        return i + 1;
      case 'list-object':
        o.object += ch;
        if (scanJson(o.scan, ch)) {
          this.listCall(o, pos + 1);
          o.phase = 'list';
          this.st = 'section';
        }
        return i + 1;
    }
  }

  private argumentChar(o: OpenSection, ch: string, pos: number): void {
    const call = o.call as ParsedCall;
    if (!call.argumentsSpan) {
      if (isWhitespace(ch)) return;
      call.argumentsSpan = { start: pos, end: pos };
    }
    o.args += ch;
    call.argumentsSpan.end = pos + 1;
    this.out.addArguments(call.index, ch);
  }

  /** The name is complete (at `[CALL_ID]`, `[ARGS]`, a `{` or the end): trimmed, once. */
  private endName(o: OpenSection): void {
    const call = o.call as ParsedCall;
    if (o.nameDone) return;
    o.nameDone = true;
    const lead = leadingWhitespace(o.name);
    call.name = o.name.trim();
    call.idSpan = { start: o.nameStart + lead, end: o.nameStart + lead + call.name.length };
  }

  /** The call goes out to the client with its name, and the id the model wrote if any (once, before its arguments). */
  private announceCall(o: OpenSection): void {
    this.endName(o);
    if (o.named) return;
    o.named = true;
    const call = o.call as ParsedCall;
    const id = o.id.trim();
    if (id) call.id = id;
    this.out.addCall({ index: call.index, ...(id ? { id } : {}), type: 'function', function: call.name ? { name: call.name } : {} });
  }

  /** A pre-v11 list object closed at `end`: a call when it reads as one. */
  private listCall(o: OpenSection, end: number): void {
    const call = newCall(this.calls.length, o.objectStart, end);
    let args = o.object;
    try {
      const obj = JSON.parse(o.object) as unknown;
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
        const { name, arguments: a } = obj as { name?: unknown; arguments?: unknown };
        if (typeof name === 'string') {
          call.name = name;
          const at = topLevelNameValue(o.object);
          if (at) call.idSpan = { start: o.objectStart + at.start, end: o.objectStart + at.end };
        }
        if (a !== undefined) args = pyJsonRoundTrip(JSON.stringify(a)) ?? JSON.stringify(a);
      }
    } catch {
      // Not JSON: kept whole, nameless, for the checks to report.
    }
    call.argumentsSpan = { start: o.objectStart, end };
    this.announce(call);
    this.out.addArguments(call.index, args);
    this.settleCall(call, args, end, true, '');
  }

  /** A v11 call is over: its arguments as written (`{}` when none were), cut or not. */
  private finishCall(o: OpenSection, end: number, terminated: boolean, why = ''): void {
    const call = o.call;
    if (!call) return;
    this.announceCall(o);
    let args = o.args.trimEnd();
    if (!call.argumentsSpan && (o.phase === 'name' || o.phase === 'id')) {
      // A name and nothing more: vLLM's engine sends the call with `{}`.
      args = '{}';
      this.out.addArguments(call.index, args);
    }
    this.settleCall(call, args, end, terminated, why);
  }

  /** The section open at `at` ends there (a marker or the end of the text). */
  private closeSection(at: number, why: string): void {
    const o = this.open;
    this.open = null;
    this.st = 'content';
    if (!o) return;
    if (o.phase === 'list' || o.phase === 'list-object') {
      if (o.phase === 'list-object') {
        const call = newCall(this.calls.length, o.objectStart, at);
        call.argumentsSpan = { start: o.objectStart, end: at };
        this.announce(call);
        this.out.addArguments(call.index, o.object);
        this.settleCall(call, o.object.trimEnd(), at, false, why);
      } else this.note('unterminated-section', at, at, `the ${TOOL_CALLS} list never closes with ]`);
      return;
    }
    if (!o.call) {
      this.note('stray-marker', o.begin, o.begin + TOOL_CALLS.length, `${TOOL_CALLS} with no call after it`);
      return;
    }
    const cut = o.phase === 'args' || o.phase === 'args-start';
    this.finishCall(o, at, !cut, cut ? why : '');
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: MarkerDef<MistralRole>, at: number): void {
    const span = this.recordMarker(m, at);
    if (this.st === 'reasoning') {
      if (m.name === 'think-end') {
        this.leaveThink('content');
        this.skipLayout = true;
        return;
      }
      this.thinkEndedBy(span.start, span.end, 'call-id');
      this.startSection(span.start, span.end);
      return;
    }
    if (this.st === 'content') {
      switch (m.name) {
        case 'call-begin':
          this.startSection(span.start, span.end);
          return;
        case 'think-begin':
          this.openThink(span.start);
          return;
        case 'think-end':
          if (this.thinkClosedLater()) return;
          this.strayThinkEnd(span.start, span.end);
          return;
        case 'end-of-turn':
          return;
        default:
          this.note('stray-marker', span.start, span.end, `${m.text} outside a call`);
          return;
      }
    }
    const o = this.open as OpenSection;
    switch (m.name) {
      case 'call-begin':
        this.closeSection(span.start, `${TOOL_CALLS} before the arguments object closed`);
        this.startSection(span.start, span.end);
        return;
      case 'end-of-turn':
        this.closeSection(span.start, 'the turn ended before the arguments object closed');
        return;
      case 'call-id':
        if (o.phase === 'name' || o.phase === 'start') {
          this.ensureCall(o, span.start);
          this.endName(o);
          o.phase = 'id';
          o.idStart = span.end;
          this.st = 'call-id';
          return;
        }
        break;
      case 'args':
        if (o.phase === 'name' || o.phase === 'id' || o.phase === 'start') {
          this.ensureCall(o, span.start);
          this.announceCall(o);
          o.phase = 'args-start';
          this.st = 'call-arguments';
          return;
        }
        break;
    }
    // Anywhere else a control token is text of the call.
    this.note('stray-marker', span.start, span.end, `${m.text} inside a call`);
  }

  /** The v11 call of this `[TOOL_CALLS]`, its name starting at `at` (a nameless one when a marker or `{` comes first). */
  private ensureCall(o: OpenSection, at: number): void {
    if (o.call) return;
    o.call = newCall(this.calls.length, o.begin, at);
    o.phase = 'name';
    o.nameStart = at;
  }

  private startSection(start: number, end: number): void {
    this.skipLayout = false;
    this.st = 'call-id';
    this.open = {
      phase: 'start',
      begin: start,
      call: null,
      nameDone: false,
      named: false,
      name: '',
      nameStart: end,
      id: '',
      idStart: end,
      args: '',
      scan: freshScan(),
      object: '',
      objectStart: end,
    };
  }

  protected endInCall(at: number): void {
    this.closeSection(at, 'the completion ends before the arguments object closes');
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseMistral(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new MistralParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
