/**
 * The streaming parser of the Gemma call family, configured by Gemma 4's and FunctionGemma's folders: a call is a begin token,
 * `call:NAME{…}`, an end token; the body between the braces is read by the one reader of Gemma's argument notation
 * (kernel/gemmaArguments.ts, shared with the no-markup scanner) into the JSON the engines send.
 *
 * Stance: lose nothing and say what happened.
 * - The name goes out when its `{` arrives; the arguments go out whole when the call ends (they are converted, not
 *   copied: a half-read body has no stable JSON), so any cut of the stream gives the same deltas' sum.
 * - The body ends at its balanced `}` (strings skipped), as SGLang's detector finds it; text after it inside the
 *   call, and whatever the reader cannot turn (FunctionGemma's pairs without `<escape>`), is noted `text-in-section`.
 * - A call without `call:NAME{` keeps an empty name and its text as the arguments, so the checks report it.
 * - Bare values of a parameter the request's tool schema describes are typed by it, as vLLM's engine types them
 *   (gemmaArguments.ts); the rest by their look.
 * - The end token always ends the call, inside a string too (it is one special token; the engines end there).
 * - Gemma 4 reasoning is `<|channel>thought\n…<channel|>`: the `thought\n` prefix is stripped as vLLM strips it; a
 *   `<|tool_call>` inside the channel ends the reasoning and is a call (vLLM's (REASONING, TOOL_START) transition),
 *   noted `think-ended-by-section`.
 * - Text between or after calls stays content; whitespace right after an end token is layout.
 */
import { gemmaArgumentsJson, gemmaBodyEnd, type GemmaArgumentStyle } from './gemmaArguments.ts';
import { leadingWhitespace, MarkupParser, newCall, type MarkerDef } from './markupParser.ts';
import type { ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';

/** What a marker of the Gemma call family does. */
export type GemmaRole = 'call-begin' | 'call-end' | 'think-begin' | 'think-end' | 'end-of-turn';

export interface GemmaSyntax {
  readonly table: readonly MarkerDef<GemmaRole>[];
  readonly callBegin: string;
  readonly callEnd: string;
  /** How the body's arguments are written. */
  readonly argumentStyle: GemmaArgumentStyle;
  /** The reasoning block's begin and end (Gemma 4's channel), absent for FunctionGemma. */
  readonly think?: { readonly begin: string; readonly end: string; readonly prefix: string };
  readonly label: string;
}

/** The header before the body: `call:` and the name up to `{` (whitespace around both allowed). */
const HEADER = /^\s*call:([^{]*)\{/u;
/** A header is read from the call's first characters only, so a call with no `{` is never re-scanned at length. */
const HEADER_WINDOW = 512;
/** What may still become the header: a prefix of `call:`, or `call:` and a name without its `{` yet. */
const HEADER_PREFIX = /^\s*(?:c(?:a(?:l(?:l(?::[^{]*)?)?)?)?)?$/u;

interface OpenGemmaCall {
  call: ParsedCall;
  /** Everything written since the begin token. */
  raw: string;
  /** Offset of raw[0] in the whole text. */
  rawAt: number;
  /** Index in raw of the body's `{`, once the header is read; -1 before, -2 when the header is not Gemma's. */
  brace: number;
}

export class GemmaCallParser extends MarkupParser<GemmaRole> {
  private open: OpenGemmaCall | null = null;
  /** Reasoning held back while it may still be the `thought\n` prefix; null once decided. */
  private thoughtHold: string | null = null;
  /** Each tool's `parameters.properties` by name (the first tool of a name, as vLLM's `find_tool_properties`). */
  private readonly properties = new Map<string, unknown>();

  constructor(
    private readonly syntax: GemmaSyntax,
    options: ParserOptions = {},
  ) {
    super(syntax.table, options.startInReasoning && syntax.think ? 'reasoning' : 'content', syntax.label);
    for (const t of Array.isArray(options.tools) ? options.tools : []) {
      const name = t?.function?.name;
      if (typeof name !== 'string' || this.properties.has(name)) continue;
      const params = t.function.parameters;
      this.properties.set(name, params && typeof params === 'object' ? (params as { properties?: unknown }).properties : undefined);
    }
  }

  protected recognised(m: MarkerDef<GemmaRole>): boolean {
    switch (this.st) {
      case 'content':
        return true;
      case 'reasoning':
        return m.name === 'think-end' || m.name === 'call-begin';
      default:
        return m.name === 'call-end' || m.name === 'call-begin' || m.name === 'end-of-turn';
    }
  }

  protected openCall(): ParsedCall | null {
    return this.open ? { ...this.open.call } : null;
  }

  // ---- text ----------------------------------------------------------------------------------------

  protected override text(text: string, at: number): void {
    if (this.st === 'reasoning' && this.thoughtHold !== null) return this.thoughtText(text);
    super.text(text, at);
  }

  /** Reasoning at the channel's start: `thought\n` is the channel's name, not reasoning. */
  private thoughtText(text: string): void {
    const prefix = (this.syntax.think as NonNullable<GemmaSyntax['think']>).prefix;
    const held = (this.thoughtHold as string) + text;
    if (held.startsWith(prefix)) {
      this.thoughtHold = null;
      this.emitReasoning(held.slice(prefix.length));
    } else if (prefix.startsWith(held)) {
      this.thoughtHold = held;
    } else {
      this.thoughtHold = null;
      this.emitReasoning(held);
    }
  }

  /** The channel ends: a held `thought` alone is the channel's name (vLLM gives no reasoning); anything else is reasoning. */
  private flushThought(): void {
    const held = this.thoughtHold;
    this.thoughtHold = null;
    if (held === null) return;
    const name = (this.syntax.think as NonNullable<GemmaSyntax['think']>).prefix.trimEnd();
    if (held.trimEnd() !== name) this.emitReasoning(held);
  }

  protected callText(text: string, _at: number): void {
    const c = this.open;
    if (!c) return;
    c.raw += text;
    if (c.brace === -1) this.readHeader(c);
  }

  private readHeader(c: OpenGemmaCall): void {
    const window = c.raw.slice(0, HEADER_WINDOW);
    const m = HEADER.exec(window);
    if (m) {
      const written = m[1] as string;
      const lead = m[0].indexOf('call:') + 'call:'.length;
      const skip = leadingWhitespace(written);
      const name = written.trim();
      c.call.name = name;
      c.call.idSpan = { start: c.rawAt + lead + skip, end: c.rawAt + lead + skip + name.length };
      c.brace = m[0].length - 1;
      c.call.argumentsSpan = { start: c.rawAt + c.brace + 1, end: c.rawAt + c.brace + 1 };
      this.st = 'call-arguments';
      this.announce(c.call);
    } else if (window.length === HEADER_WINDOW || !HEADER_PREFIX.test(window)) {
      c.brace = -2;
    }
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: MarkerDef<GemmaRole>, at: number): void {
    const span = this.recordMarker(m, at);
    if (this.st === 'reasoning') {
      if (m.name === 'think-end') {
        this.flushThought();
        this.leaveThink('content');
        this.skipLayout = true;
        return;
      }
      // A call inside the channel ends the reasoning there (vLLM's (REASONING, TOOL_START) transition).
      this.flushThought();
      this.thinkEndedBy(span.start, span.end, 'call-id');
      this.startCall(span.start, span.end);
      return;
    }
    if (this.st === 'content') {
      switch (m.name) {
        case 'call-begin':
          this.startCall(span.start, span.end);
          return;
        case 'think-begin':
          this.openThink(span.start);
          this.thoughtHold = '';
          return;
        case 'think-end':
          if (this.thinkClosedLater()) return;
          this.note('stray-marker', span.start, span.end, `${m.text} without ${this.syntax.think?.begin ?? ''}`);
          this.skipLayout = true;
          return;
        case 'call-end':
          this.note('stray-marker', span.start, span.end, `${m.text} without ${this.syntax.callBegin}`);
          return;
        case 'end-of-turn':
          return;
      }
    }
    // Inside a call.
    switch (m.name) {
      case 'call-end':
        this.closeCall(span.end, true);
        this.skipLayout = true;
        return;
      case 'call-begin':
        // A new call before this one's end token: this one is cut there.
        this.closeCall(span.start, false, `${this.syntax.callBegin} before ${this.syntax.callEnd}`);
        this.startCall(span.start, span.end);
        return;
      default:
        this.closeCall(span.start, false, `the turn ended before ${this.syntax.callEnd}`);
        return;
    }
  }

  private startCall(start: number, end: number): void {
    this.skipLayout = false;
    this.st = 'call-id';
    this.open = { call: newCall(this.calls.length, start, end), raw: '', rawAt: end, brace: -1 };
  }

  /** The call ends at `bodyEnd` (the end token's start), at `end` (past it) or cut off. */
  private closeCall(end: number, terminated: boolean, why = ''): void {
    const c = this.open as OpenGemmaCall;
    this.open = null;
    this.st = 'content';
    let args: string;
    if (c.brace < 0) {
      // No `call:NAME{`: the text is kept as the arguments, nameless, for the checks to report.
      const lead = leadingWhitespace(c.raw);
      args = c.raw.trim();
      if (args) c.call.argumentsSpan = { start: c.rawAt + lead, end: c.rawAt + lead + args.length };
      this.announce(c.call);
      this.out.addArguments(c.call.index, args);
    } else {
      const close = gemmaBodyEnd(c.raw, c.brace);
      let body = close >= 0 ? c.raw.slice(c.brace + 1, close) : c.raw.slice(c.brace + 1);
      if (close < 0 && terminated && body.trimEnd().endsWith('}')) body = body.trimEnd().slice(0, -1);
      const bodyStart = c.rawAt + c.brace + 1;
      (c.call.argumentsSpan as { start: number; end: number }).end = bodyStart + body.length;
      if (close >= 0) {
        const after = c.raw.slice(close + 1);
        const skip = leadingWhitespace(after);
        if (skip < after.length) {
          const from = c.rawAt + close + 1 + skip;
          this.note(
            'text-in-section',
            from,
            from + after.trimEnd().length - skip,
            `text after the call's closing } inside ${this.syntax.callBegin}`,
          );
        }
      }
      const { json, problems } = gemmaArgumentsJson(body, this.syntax.argumentStyle, this.properties.get(c.call.name));
      for (const p of problems) this.note('text-in-section', bodyStart, bodyStart + body.length, p);
      args = json ?? body.trim();
      this.out.addArguments(c.call.index, args);
    }
    this.settleCall(c.call, args, end, terminated, why);
  }

  protected endInCall(at: number): void {
    if (this.open) this.closeCall(at, false, `the completion ends before ${this.syntax.callEnd}`);
  }

  protected override end(at: number): void {
    if (this.st === 'reasoning') this.flushThought();
    super.end(at);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseGemma(syntax: GemmaSyntax, text: string, options: ParserOptions = {}): ParseResult {
  const parser = new GemmaCallParser(syntax, options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
