/**
 * The streaming parser kernel for pythonic tool calls — `[f(a=1, b="x"), g()]` — written bare at the start of the
 * answer (vLLM `pythonic`, `llama4_pythonic`), or inside a block a format opens and closes with its markers (LFM2's
 * `<|tool_call_start|>[…]<|tool_call_end|>`, Llama 4's `<|python_start|>[…]<|python_end|>`, Olmo 3's
 * `<function_calls>` with one call a line). A format configures it with its markers (PythonicSyntax).
 *
 * Stance: lose nothing and say what happened. A block's text is held until it closes (its end marker, the list's
 * own `]` for a bare list, the turn's end or the end of the text) and then read by the one pythonic reader
 * (pythonCallReader.ts) as vLLM reads it: every element a call, every argument a literal turned into the JSON
 * `json.dumps` writes. When that holds, the calls go out whole, one delta each; when it does not (not a list of
 * calls, an argument that is a name or a call), the block is content as written — vLLM gives the whole output back
 * as text — and a `text-in-section` note says why, the reader's problems included, never a guessed value.
 * Positional arguments vLLM drops are noted too. Calls carry no ids (the server invents them).
 *
 * Held between pushes: a possible marker prefix (the markup kernel), blanks at the very start (layout before a bare
 * list, content otherwise) and the open block's text; the bracket scan looks two characters ahead (a triple quote),
 * so it waits for them. The state follows the block: `section` between calls, `call-id` over a name, `call-arguments`
 * inside its parentheses.
 */
import { pyCallArguments, readPyCall, readPyCallList, type PyCall } from './pythonCallReader.ts';
import { isWhitespace, MarkupParser, newCall, type MarkerDef } from './markupParser.ts';
import type { ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';

export type PythonicRole = 'block-begin' | 'block-end' | 'think-begin' | 'think-end' | 'end-of-turn';

/** How a block's calls are written: a Python list (`[f(), g()]`) or one call a line (Olmo 3). */
export type PythonicBody = 'list' | 'lines';

export interface PythonicSyntax {
  /** Every marker the format recognises, by role; each is a special token of the vocabulary (recognised anywhere). */
  readonly table: readonly MarkerDef<PythonicRole>[];
  /** How the calls inside the block a `block-begin` marker opens are written, by the marker's text. */
  readonly bodies: Readonly<Record<string, PythonicBody>>;
  /** A list at the very start of the answer (blanks aside) holds calls with no marker around it (vLLM `pythonic`). */
  readonly bareList: boolean;
  /** The engine, in words, for notes (`vLLM's pythonic parser`). */
  readonly engine: string;
  readonly label: string;
}

interface OpenBlock {
  /** Absolute offset of the block's first text character (after its begin marker). */
  start: number;
  /** The begin marker's offset (the block's own `[` for a bare list). */
  markerStart: number;
  /** The begin marker as written ('' for a bare list). */
  marker: string;
  body: PythonicBody;
  text: string;
  /** Bracket scan: next index of `text` to look at, nesting, open string quote, triple-quoted, in a comment. */
  scan: number;
  depth: number;
  quote: string;
  triple: boolean;
  comment: boolean;
  /** A name has started since the last separator (for the state). */
  named: boolean;
}

export class PythonicCallParser extends MarkupParser<PythonicRole> {
  private block: OpenBlock | null = null;
  /** Nothing but blanks so far: a `[` now opens a bare list. */
  private atStart: boolean;
  private lead = '';
  private leadAt = 0;
  /** A bare list closed: text after it is noted once (trailingNote, extended while that text runs; -1: none). */
  private afterList = false;
  private trailingNote = -1;
  private index = 0;

  constructor(
    private readonly syntax: PythonicSyntax,
    options: ParserOptions = {},
  ) {
    super(syntax.table, options.startInReasoning ? 'reasoning' : 'content', syntax.label);
    this.atStart = syntax.bareList;
  }

  protected recognised(_m: MarkerDef<PythonicRole>): boolean {
    return true;
  }

  protected override text(text: string, at: number): void {
    if (this.st === 'reasoning') return this.emitReasoning(text);
    if (this.block) return this.blockText(text);
    this.contentFrom(text, at);
  }

  protected callText(text: string): void {
    this.blockText(text);
  }

  private contentFrom(text: string, at: number): void {
    let from = 0;
    if (this.atStart) {
      while (from < text.length && isWhitespace(text[from] as string)) from++;
      if (from === text.length) {
        if (this.lead === '') this.leadAt = at;
        this.lead += text;
        return;
      }
      this.atStart = false;
      if (text[from] === '[') {
        // The bare form: the blanks before it are layout.
        this.lead = '';
        this.openBlock(at + from, at + from, '', 'list');
        return this.blockText(text.slice(from));
      }
      this.flushLead();
    }
    if (this.trailingNote >= 0) (this.notes[this.trailingNote] as { span: { end: number } }).span.end = at + text.length;
    else if (this.afterList) {
      const i = text.length - text.slice(from).trimStart().length;
      if (i < text.length) this.noteTrailing(at + i, at + text.length);
    }
    this.emitContentAfterLayout(from === 0 ? text : text.slice(from), at + from);
  }

  private flushLead(): void {
    if (this.lead) this.emitContent(this.lead, this.leadAt);
    this.lead = '';
  }

  private openBlock(start: number, markerStart: number, marker: string, body: PythonicBody): void {
    this.block = { start, markerStart, marker, body, text: '', scan: 0, depth: 0, quote: '', triple: false, comment: false, named: false };
    this.st = 'section';
  }

  /** Text inside the open block: kept, and scanned for its brackets (a bare list ends at its own `]`). */
  private blockText(text: string): void {
    const b = this.block as OpenBlock;
    b.text += text;
    this.scanBlock(b, false);
  }

  /** The bracket scan up to the end, short of a quote or backslash in the last two characters unless `final`. */
  private scanBlock(b: OpenBlock, final: boolean): void {
    const t = b.text;
    const base = b.body === 'list' ? 1 : 0;
    let i = b.scan;
    while (i < t.length) {
      const c = t[i] as string;
      // A quote may be the first of three, a backslash escapes the next: wait for the two characters after them.
      if (!final && (c === '"' || c === "'" || c === '\\') && i + 2 >= t.length) break;
      if (b.comment) {
        if (c === '\n') b.comment = false;
        i++;
      } else if (b.quote) {
        if (c === '\\') i += 2;
        else if (b.triple ? t.startsWith(b.quote.repeat(3), i) : c === b.quote) {
          i += b.triple ? 3 : 1;
          b.quote = '';
        } else i++;
      } else {
        i++;
        if (c === '#') b.comment = true;
        else if (c === '"' || c === "'") {
          b.triple = t.startsWith(c.repeat(3), i - 1);
          if (b.triple) i += 2;
          b.quote = c;
        } else if (c === '(' || c === '[' || c === '{') b.depth++;
        else if (c === ')' || c === ']' || c === '}') {
          b.depth--;
          if (b.depth === base) b.named = false;
          if (b.depth === 0 && c === ']' && b.marker === '' && b.body === 'list') {
            b.scan = i;
            this.st = 'section';
            return this.closeBareList(b, i);
          }
        } else if (b.depth === base && (c === ',' || c === '\n')) b.named = false;
        else if (b.depth === base && !isWhitespace(c)) b.named = true;
      }
    }
    b.scan = Math.max(b.scan, i);
    this.st = b.depth > base ? 'call-arguments' : b.named ? 'call-id' : 'section';
  }

  /** A bare list closed at its `]` (`end` in the block's text): its calls, and what follows is content. */
  private closeBareList(b: OpenBlock, end: number): void {
    const rest = b.text.slice(end);
    b.text = b.text.slice(0, end);
    this.st = 'content';
    this.afterList = this.settleBlock(b, b.start + end, true);
    if (rest) this.contentFrom(rest, b.start + end);
  }

  private noteTrailing(at: number, end: number): void {
    this.trailingNote = this.notes.length;
    this.note(
      'text-in-section',
      at,
      end,
      `text after the call list (${this.syntax.engine} drops it when the whole output is Python, else gives everything back as text)`,
    );
  }

  protected override contentText(text: string, at: number): void {
    this.contentFrom(text, at);
  }

  protected marker(m: MarkerDef<PythonicRole>, at: number): void {
    const span = { start: at, end: at + m.text.length };
    if (this.st === 'reasoning') {
      this.markerInThink(m, span.start, span.end, m.name === 'think-end');
      this.recordMarker(m, at);
      return;
    }
    // The text before a marker is final: the scan's look-ahead no longer waits (a bare list may close there).
    if (this.block) this.scanBlock(this.block, true);
    this.recordMarker(m, at);
    this.trailingNote = -1;
    this.afterList = false;
    if (this.atStart) {
      // Blanks before the first marker are layout.
      this.atStart = false;
      this.lead = '';
    }
    const b = this.block;
    if (b) {
      if (m.name === 'block-end' && b.marker !== '') {
        this.settleBlock(b, span.end, true, '', m.text);
        this.st = 'content';
        this.skipLayout = true;
        return;
      }
      // Any other marker ends the block where it stands.
      this.settleBlock(b, span.start, false, `${m.text} before the block's end`);
      this.st = 'content';
    }
    if (m.name === 'block-begin') this.openBlock(span.end, span.start, m.text, this.syntax.bodies[m.text] ?? 'list');
    else if (m.name === 'think-begin') this.openThink(span.start);
    else if (m.name === 'think-end') this.strayThinkEnd(span.start, span.end);
    else if (m.name === 'block-end') {
      this.note('stray-marker', span.start, span.end, `${m.text} with no block open`);
      this.skipLayout = true;
    } else this.skipLayout = true;
  }

  /**
   * The block is over: its calls when the engine would read them all, else its text as content with the reasons.
   * `end` is where the block ends in the whole text (past its end marker when it came).
   */
  private settleBlock(b: OpenBlock, end: number, closed: boolean, why = '', endMarker = ''): boolean {
    this.block = null;
    const read = readBlock(b.text, b.body);
    const problems = read.calls ? read.calls.flatMap((c) => pyCallArguments(c).problems.map((p) => `${c.name}: ${p}`)) : [];
    const unturned = read.calls?.some((c) => pyCallArguments(c).json === null) ?? false;
    if (!read.calls || unturned) {
      this.emitContent(b.marker + b.text + endMarker, b.markerStart);
      // Cut off inside a call (max_tokens): the call never terminated, whatever the engine then does with the text.
      if (!closed && !read.calls && STARTED_CALL.test(b.text.slice(0, 300))) {
        this.note('unterminated-call', b.markerStart, end, `${why}, inside a call; ${this.syntax.engine} gives the text back as content`);
        return false;
      }
      this.note(
        'text-in-section',
        b.markerStart,
        end,
        read.calls
          ? `the calls could not be read as ${this.syntax.engine} reads them (${problems.join('; ')}); it gives the whole output back as text`
          : `${read.why}; ${this.syntax.engine} gives the whole output back as text`,
      );
      return false;
    }
    for (const c of read.calls) {
      const call = newCall(this.index++, b.start + c.start, b.start + c.end);
      const open = b.text.indexOf('(', c.start);
      call.name = c.name;
      call.id = '';
      call.idSpan = { start: b.start + c.start, end: b.start + open };
      call.argumentsSpan = { start: b.start + open + 1, end: b.start + c.end - 1 };
      this.announce(call);
      const args = pyCallArguments(c).json as string;
      this.out.addArguments(call.index, args);
      this.settleCall(call, args, b.start + c.end, true, '');
    }
    if (problems.length) this.note('text-in-section', b.start, end, `arguments ${this.syntax.engine} drops: ${problems.join('; ')}`);
    if (read.trailing >= 0) this.noteTrailingIn(b.start + read.trailing, end);
    if (!closed) this.note('unterminated-section', b.markerStart, end, why || `the block opened by ${b.marker} is never closed`);
    return true;
  }

  /** Text inside a block after its calls. */
  private noteTrailingIn(at: number, end: number): void {
    this.note('text-in-section', at, end, `text after the calls inside the block (${this.syntax.engine} does not read it)`);
  }

  protected endInCall(at: number): void {
    const b = this.block;
    if (b) this.settleBlock(b, at, false, b.marker ? `the block opened by ${b.marker} is never closed` : 'the call list is never closed');
  }

  protected override end(at: number): void {
    if (this.atStart) this.flushLead();
    // The last characters were waiting for the scan's look-ahead: a bare list may close there.
    if (this.block) this.scanBlock(this.block, true);
    if (this.block) {
      this.endInCall(at);
      this.st = 'content';
    }
    super.end(at);
  }

  protected openCall(): ParsedCall | null {
    return null;
  }
}

/** A call has begun: a name and its `(` (after the list's `[` in the list forms). */
const STARTED_CALL = /^\s*\[?\s*[A-Za-z_][\w.]*\s*\(/u;

/** The calls a block holds, as the engine reads them, or why none are; `trailing`: where text after them starts (-1). */
function readBlock(text: string, body: PythonicBody): { calls: PyCall[] | null; why: string; trailing: number } {
  let at = 0;
  while (at < text.length && isWhitespace(text[at] as string)) at++;
  if (body === 'list') {
    const list = text[at] === '[' ? readPyCallList(text, at) : null;
    if (!list) return { calls: null, why: 'the text is not a Python list of calls', trailing: -1 };
    const after = skipBlank(text, list.end);
    return { calls: list.calls, why: '', trailing: after < text.length ? after : -1 };
  }
  // One call a line (Olmo 3): each read on its own, separated by a line break.
  const calls: PyCall[] = [];
  while (at < text.length) {
    const call = readPyCall(text, at);
    if (!call)
      return calls.length
        ? { calls, why: '', trailing: at }
        : { calls: null, why: 'the text is not Python calls, one a line', trailing: -1 };
    calls.push(call);
    let i = call.end;
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
    if (i < text.length && text[i] !== '\n') return { calls, why: '', trailing: i };
    at = skipBlank(text, i);
  }
  return calls.length ? { calls, why: '', trailing: -1 } : { calls: null, why: 'the block holds no call', trailing: -1 };
}

function skipBlank(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhitespace(text[i] as string)) i++;
  return i;
}

/** The one-shot form: the same parser fed the whole text. */
export function parsePythonic(syntax: PythonicSyntax, text: string, options: ParserOptions = {}): ParseResult {
  const parser = new PythonicCallParser(syntax, options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
