/**
 * The key/value call kernel: the streaming parser of formats whose calls are a name and one tagged value per
 * argument (Qwen3-Coder's `<function=NAME><parameter=KEY>VALUE</parameter></function>`, GLM's
 * `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>`, DeepSeek DSML's
 * `<｜DSML｜invoke name="NAME"><｜DSML｜parameter name="KEY" string="true">VALUE</｜DSML｜parameter></｜DSML｜invoke>`). A format configures it with its
 * markup (`KeyValueSyntax`); the kernel does the rest the same way for all of them:
 *
 * - typed values: the client gets OpenAI arguments, a JSON object built from the parameters, each value typed by the
 *   tool's schema (parameterTypes.ts) or, where the format writes one, by an attribute of its key (DSML's
 *   `string="true|false"`): strings raw, other types JSON. String values stream as they are written
 *   (JSON-escaped); other values go out when their parameter closes. The value's layout (one newline each side, or
 *   all surrounding whitespace) is trimmed as the format's engines trim it.
 * - closer confirmation: a literal value closer (or function or call closer) inside a value — code often contains
 *   them — closes the value only when what follows (after whitespace) is a tag that may come next or the end of the
 *   text; otherwise it is value text. Only that tag and whitespace are held back while undecided.
 * - a parameter begin at the start of a line inside a value closes the value without its closer (noted).
 * - text inside a call outside any parameter: content, noted; a truncated call keeps its arguments as they stood
 *   (no closing quote or brace), so the JSON check reports it; the name is kept as written (trimmed).
 *
 * Attribute-style markup (MiniMax's `<invoke name="N">`) declares `quotedNames`; a name that a tag ends (Hy3's
 * `NAME<tool_sep>`) is declared by a `name-end` tag, and then a name ended by anything else is no call (content, noted).
 * Formats whose tags carry attributes (Kimi K3's `<|open|>call tool="NAME" index="1"<|sep|>`, `<|open|>argument
 * key="K" type="number"<|sep|>`) end the name and the key with a tag (`header-end`), read them from the attributes
 * (`readName`, `readKey`), and may write each value's type beside its key: a written type types the value instead of
 * the schema. A raw block (`raw-begin` … `raw-end`, Kimi K3's `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`)
 * holds the whole arguments as JSON text, passed through as written.
 *
 * Wrapped formats (Qwen3-Coder) hold one function in a call wrapper (`<tool_call>` … `</tool_call>`): a function
 * without the wrapper still parses (noted `missing-section-begin`), `</function>` without `</tool_call>` is noted
 * `missing-section-end`, a missing `</function>` before `</tool_call>` is tolerated. Unwrapped formats (GLM) open
 * the function with the call begin itself and close it with the call end.
 */
import { isWhitespace, leadingWhitespace, MarkupParser, newCall, type MarkerDef } from './markupParser.ts';
import type { ParsedCall, ParserOptions } from '../toolCallFormat.ts';
import { elementValue, type ElementNode } from './elementValues.ts';
import { ParameterTypes, stringValueJson, typedValueJson, UNTYPED_JSON, writtenType, type ParameterType } from './parameterTypes.ts';

/** What a tag does in a key/value call; a format's scan table names its tags by these roles. */
export type KeyValueRole =
  | 'call-begin'
  | 'call-end'
  | 'function-begin'
  | 'function-end'
  /** Ends the function name when a tag does (Hy3's `<tool_sep>`); a name that anything else ends is no call. */
  | 'name-end'
  | 'parameter-begin'
  /** Ends the key when the key has a closing tag (GLM `</arg_key>`); else a character ends it (`keyEnd`). */
  | 'key-end'
  /** Begins the value when it has an opening tag of its own (GLM `<arg_value>`). */
  | 'value-begin'
  | 'parameter-end'
  | 'think-begin'
  | 'think-end'
  | 'end-of-turn'
  /** Ends the function's header or a key written as attributes (Kimi K3's `<|sep|>`); elsewhere text. */
  | 'header-end'
  /** Opens a block holding the whole arguments as JSON (its own header up to `header-end`). */
  | 'raw-begin'
  | 'raw-end';

/** A format's key/value markup, for the kernel. */
export interface KeyValueSyntax {
  /** Everything the parser recognises (special tokens and text tags), named by role. */
  readonly table: readonly MarkerDef<KeyValueRole>[];
  /** The tags that are special tokens of the vocabulary: they go in the parse's marker list. */
  readonly tokenMarkers: readonly string[];
  /** The call begin holds a function tag (Qwen3-Coder); false: the call begin opens the function itself (GLM). */
  readonly wrapped: boolean;
  /** The call wrapper holds several functions one after another (DSML's invokes in one block); false: one (Qwen3-Coder). */
  readonly manyFunctions?: boolean;
  /**
   * The character that ends the function name (`>` for `<function=NAME>`, a line break for GLM 4.5's `<tool_call>NAME\n`);
   * null: only a tag ends it (a `name-end` tag, the `header-end` tag, or the next tag).
   */
  readonly nameEnd: string | null;
  /**
   * Names and keys are attribute values (MiniMax's `<invoke name="N">`, `<parameter name="k">`): one pair of matching
   * quotes around them is removed, as vLLM's minimax_m2 parser reads them.
   */
  readonly quotedNames?: boolean;
  /**
   * A function tag outside the call wrapper is text, not a call (MiniMax: SGLang reads invokes only inside
   * `<minimax:tool_call>`, and a bare `<invoke>` is also other models' XML). Off: it parses, noted
   * `missing-section-begin` (Qwen3-Coder).
   */
  readonly requireWrapper?: boolean;
  /**
   * The function's name from its header as written (Kimi K3: the `tool` attribute, unescaped), and where it is
   * written in the header (`start`, `end`); absent: the header, trimmed.
   */
  readonly readName?: (header: string) => { name: string; start: number; end: number };
  /**
   * A parameter's key from its header as written, and the value's type when the format writes it there (Kimi K3's
   * `type` attribute): `string` keeps the value text, any other type reads it as JSON when it parses, whatever the
   * schema says. Absent: the header, trimmed, typed by the schema.
   */
  readonly readKey?: (header: string) => { key: string; type?: string };
  /**
   * A call begin with no name after it is no call (GLM: `<tool_call>` then a line break or a tag, which Hermes' JSON
   * calls and Qwen3-Coder's `<function=` also give): the tag and what followed are content, noted. Qwen3-Coder keeps
   * a nameless function as a call (false).
   */
  readonly requireName: boolean;
  /** The character that ends a key (`>` for `<parameter=KEY>`); null: the `key-end` tag does. */
  readonly keyEnd: string | null;
  /**
   * How a value the schema does not type (an unknown tool or parameter) is read: as text (vLLM's qwen3_coder), or as
   * JSON when it parses (vLLM's and SGLang's GLM parsers try `json.loads` on anything not typed string).
   */
  readonly untypedValues: 'text' | 'json';
  /**
   * Which layout around a value is trimmed: one line break each side, all whitespace (Python's `strip()`), or none
   * (`verbatim`: the value is every character between its tags, as vLLM's minimax_m2, hy_v3 and DeepSeek DSML parsers
   * and Kimi K3's renderer keep it).
   */
  readonly valueLayout: 'newline' | 'whitespace' | 'verbatim';
  /**
   * Attributes after the name or key (DeepSeek DSML's `<｜DSML｜invoke name="N">`, `… name="k" string="true">`): the
   * name or key ends at `nameEnd` / `keyEnd`, and its header then runs up to this character; null: no attributes.
   */
  readonly attributesEnd?: string | null;
  /**
   * The value's type read from a parameter's attributes (DSML's `string="true"`: raw text; `string="false"`: JSON),
   * which then wins over the schema; undefined: the schema types it as usual.
   */
  readonly attributeType?: (attributes: string) => ParameterType | undefined;
  /**
   * A value may hold child elements, and a parameter closes by a tag naming its key (MiniMax-M3's `]<]minimax[>[<KEY>`
   * … `]<]minimax[>[</KEY>`, objects and arrays as child tags): inside a value the parameter-begin tag opens a child
   * named up to `keyEnd`, and the parameter-end tag is followed by the name it closes and `keyEnd` (a parameter-end
   * tag that ends with `keyEnd` itself closes the innermost open element). A value is sent
   * whole when it closes (vLLM sends M3's invoke whole), a value with children typed by the schema member by member
   * (elementValues.ts).
   */
  readonly elementValues?: boolean;
  /** The tags as the structure notes name them. */
  readonly words: {
    readonly callBegin: string;
    readonly callEnd: string;
    readonly functionBegin: string;
    readonly functionEnd: string;
    readonly nameEnd?: string;
    readonly parameterBegin: string;
    readonly parameterEnd: string;
    readonly keyEnd?: string;
    readonly valueBegin?: string;
  };
  /** The parser's name in errors. */
  readonly label: string;
}

type Marker = MarkerDef<KeyValueRole>;

/** Stray text's state: the layout whitespace held back (and where it began), and the note it extends (-1: none yet). */
interface StrayText {
  whitespace: string;
  whitespaceAt: number;
  note: number;
}

const strayText = (): StrayText => ({ whitespace: '', whitespaceAt: 0, note: -1 });

/**
 * Where the open function stands (`name-attrs` / `key-attrs`: after the name or key, up to `attributesEnd`;
 * `raw-header` / `raw`: a raw arguments block's header and body).
 */
type Stage =
  | 'name'
  | 'name-attrs'
  | 'body'
  | 'param-name'
  | 'key-attrs'
  | 'key-done'
  | 'value'
  | 'closing'
  | 'raw-header'
  | 'raw'
  /** `elementValues`: the name of a child element being opened, or of the element a closing tag closes. */
  | 'child-name'
  | 'closer-name';

interface OpenParam {
  name: string;
  type: ParameterType;
  /** Streamed as it is written (string, not nullable). */
  streaming: boolean;
  /** The value as written, after the leading layout. */
  value: string;
  /** Whether the leading layout was passed (the first value character seen, or the first non-space one). */
  started: boolean;
  /** Characters of `value` already sent. */
  sent: number;
  /** `elementValues`: the child elements open inside the value, innermost last (the value's own text is `value`). */
  open: ElementNode[];
  /** The parameter's children so far (`elementValues`). */
  children: ElementNode[];
  /** The name of the element being opened or closed, as written so far. */
  tag: string;
}

interface OpenFunction {
  call: ParsedCall;
  /** The tag that opened it, as written. */
  beginText: string;
  stage: Stage;
  nameRaw: string;
  nameStart: number;
  /** Arguments text sent so far. */
  args: string;
  params: number;
  /** The arguments came in a raw block: they are its text, not built from parameters. */
  raw: boolean;
  param: OpenParam | null;
  paramNameRaw: string;
  /** The attributes after the name or key, as written so far. */
  attrs: string;
  /** A closing tag seen inside a value, waiting for what follows. */
  closer: Marker | null;
  closerAt: number;
  /** The closing tag and the whitespace after it, as written. */
  held: string;
  /** Text between parameters: whitespace held until text shows it is content. */
  /** Text in the function outside any parameter (noted once, its layout held back). */
  junk: StrayText;
}

/** The length of `s` without its trailing whitespace. */
function trimmedLength(s: string): number {
  let j = s.length;
  while (j > 0 && isWhitespace(s[j - 1] as string)) j--;
  return j;
}

/** One pair of matching quotes around `s` removed (vLLM minimax_m2 `_extract_name`); the offset of what is left. */
function unquote(s: string): { text: string; lead: number } {
  const q = s[0];
  if (s.length >= 2 && (q === '"' || q === "'") && s.endsWith(q)) return { text: s.slice(1, -1), lead: 1 };
  return { text: s, lead: 0 };
}

export class KeyValueCallParser extends MarkupParser<KeyValueRole> {
  private readonly types: ParameterTypes;
  private readonly tokens: ReadonlySet<string>;
  /** The tags that may follow a closing tag for it to count as structural, by role. */
  private readonly followers: Partial<Record<KeyValueRole, readonly KeyValueRole[]>>;
  /** A tag ends the name (Hy3's `<tool_sep>`): a name ended otherwise is no call. */
  private readonly nameEndTag: boolean;
  private fn: OpenFunction | null = null;
  /** Inside the call wrapper: where it began, and whether a function completed in it. */
  private wrapStart: number | null = null;
  private wrapHasFunction = false;
  private wrapFunctionDone = false;
  /** Text in the call wrapper outside a function (noted once, its layout held back). */
  private section = strayText();

  constructor(
    private readonly syntax: KeyValueSyntax,
    options: ParserOptions = {},
  ) {
    super(syntax.table, options.startInReasoning ? 'reasoning' : 'content', syntax.label);
    this.types = new ParameterTypes(options.tools, syntax.untypedValues === 'json' ? UNTYPED_JSON : undefined);
    this.tokens = new Set(syntax.tokenMarkers);
    this.nameEndTag = syntax.table.some((m) => m.name === 'name-end');
    this.followers = syntax.wrapped
      ? {
          'parameter-end': ['parameter-begin', 'raw-begin', 'function-end', 'call-end', 'end-of-turn'],
          'function-end': syntax.manyFunctions ? ['call-end', 'function-begin', 'end-of-turn'] : ['call-end', 'end-of-turn'],
          'call-end': ['call-begin', 'end-of-turn'],
        }
      : {
          'parameter-end': ['parameter-begin', 'raw-begin', 'call-end', 'end-of-turn'],
          'call-end': ['call-begin', 'end-of-turn'],
        };
  }

  /** The role a tag plays inside a function: unwrapped, the call begin and end are the function's. */
  private inFunction(role: KeyValueRole): KeyValueRole {
    if (this.syntax.wrapped) return role;
    return role === 'call-begin' ? 'function-begin' : role === 'call-end' ? 'function-end' : role;
  }

  protected recognised(m: Marker): boolean {
    const n = m.name;
    switch (this.st) {
      case 'content':
        return (
          n === 'call-begin' ||
          n === 'call-end' ||
          (n === 'function-begin' && !this.syntax.requireWrapper) ||
          n === 'think-begin' ||
          n === 'think-end' ||
          n === 'end-of-turn'
        );
      case 'reasoning':
        return n === 'think-end' || n === 'call-begin' || n === 'function-begin';
      case 'section':
        return n === 'call-begin' || n === 'call-end' || n === 'function-begin' || n === 'end-of-turn';
      default:
        break;
    }
    const r = this.inFunction(n);
    switch (this.fn?.stage) {
      case 'name':
      case 'name-attrs':
        // Where a tag must end the name (Hy3's `<tool_sep>`), any other of the format's tags before it ends the
        // name as no call — a 4-bit Hy3 writes `<tool_call>NAME</arg_value>` (mlx-lm PR 1211) — never part of it.
        if (this.nameEndTag && this.fn?.stage === 'name') return r !== 'think-begin' && r !== 'think-end';
        return (
          r !== 'think-begin' && r !== 'think-end' && r !== 'parameter-end' && r !== 'key-end' && r !== 'value-begin' && r !== 'raw-end'
        );
      case 'body':
        return (
          r !== 'think-begin' &&
          r !== 'think-end' &&
          r !== 'parameter-end' &&
          r !== 'key-end' &&
          r !== 'value-begin' &&
          r !== 'name-end' &&
          r !== 'raw-end' &&
          r !== 'header-end'
        );
      case 'raw-header':
        return r === 'header-end' || r === 'raw-end' || r === 'function-end' || r === 'end-of-turn';
      case 'raw':
        return r === 'raw-end' || r === 'function-end' || r === 'end-of-turn';
      case 'param-name':
      case 'key-attrs':
        return (
          r === 'header-end' ||
          r === 'parameter-end' ||
          r === 'function-end' ||
          r === 'call-end' ||
          r === 'parameter-begin' ||
          r === 'end-of-turn' ||
          r === 'key-end' ||
          r === 'value-begin'
        );
      case 'child-name':
      case 'closer-name':
        // The name runs to `keyEnd`, whatever it holds.
        return false;
      case 'key-done':
        return r === 'value-begin' || r === 'parameter-begin' || r === 'function-end' || r === 'call-end' || r === 'end-of-turn';
      case 'value':
        return r === 'parameter-end' || r === 'function-end' || r === 'call-end' || r === 'parameter-begin' || r === 'end-of-turn';
      case 'closing':
        return r !== 'think-begin' && r !== 'think-end' && r !== 'key-end' && r !== 'value-begin' && r !== 'name-end' && r !== 'header-end';
      default:
        return false;
    }
  }

  protected openCall(): ParsedCall | null {
    const f = this.fn;
    return f ? { ...f.call, arguments: f.args } : null;
  }

  // ---- text ----------------------------------------------------------------------------------------

  protected callText(text: string, at: number): void {
    this.functionText(text, at);
  }

  /** Text inside the call wrapper outside a function: content, noted; whitespace there is layout. */
  protected override sectionText(text: string, at: number): void {
    this.strayText(this.section, text, at, `text inside ${this.syntax.words.callBegin} outside the function`);
  }

  private functionText(text: string, at: number): void {
    const f = this.fn;
    if (!f) return;
    let i = 0;
    while (i < text.length) {
      switch (f.stage) {
        case 'name': {
          const gt = this.syntax.nameEnd === null ? -1 : text.indexOf(this.syntax.nameEnd, i);
          if (gt < 0) {
            f.nameRaw += text.slice(i);
            return;
          }
          f.nameRaw += text.slice(i, gt);
          i = gt + 1;
          if (this.syntax.attributesEnd) {
            f.stage = 'name-attrs';
            f.attrs = '';
            break;
          }
          const named = this.nameDone(f, at + i, this.syntax.nameEnd ?? '');
          // Not a call after all: the rest is content.
          if (!named) return this.text(text.slice(i), at + i);
          break;
        }
        case 'name-attrs': {
          const end = text.indexOf(this.syntax.attributesEnd as string, i);
          if (end < 0) {
            f.attrs += text.slice(i);
            return;
          }
          f.attrs += text.slice(i, end);
          i = end + 1;
          const named = this.nameDone(f, at + i, `${this.syntax.nameEnd}${f.attrs}${this.syntax.attributesEnd}`);
          if (!named) return this.text(text.slice(i), at + i);
          break;
        }
        case 'param-name': {
          const gt = this.syntax.keyEnd === null ? -1 : text.indexOf(this.syntax.keyEnd, i);
          if (gt < 0) {
            f.paramNameRaw += text.slice(i);
            return;
          }
          f.paramNameRaw += text.slice(i, gt);
          i = gt + 1;
          if (this.syntax.attributesEnd) {
            f.stage = 'key-attrs';
            f.attrs = '';
            break;
          }
          this.openParam(f);
          break;
        }
        case 'key-attrs': {
          const end = text.indexOf(this.syntax.attributesEnd as string, i);
          if (end < 0) {
            f.attrs += text.slice(i);
            return;
          }
          f.attrs += text.slice(i, end);
          i = end + 1;
          this.openParam(f);
          break;
        }
        case 'key-done': {
          // Layout between the key's end and the value's begin; anything else is the value without its begin tag.
          const k = i + leadingWhitespace(text.slice(i));
          if (k === text.length) return;
          this.note(
            'stray-marker',
            at + k,
            at + k,
            `${this.syntax.words.valueBegin ?? ''} missing after the key "${f.paramNameRaw.trim()}"`,
          );
          this.openParam(f);
          i = k;
          break;
        }
        case 'value':
          this.valueText(f, text.slice(i), at + i);
          return;
        case 'child-name':
        case 'closer-name': {
          const p = f.param as OpenParam;
          const gt = text.indexOf(this.syntax.keyEnd ?? '>', i);
          if (f.call.argumentsSpan) f.call.argumentsSpan.end = at + (gt < 0 ? text.length : gt + 1);
          if (gt < 0) {
            p.tag += text.slice(i);
            return;
          }
          p.tag += text.slice(i, gt);
          i = gt + 1;
          if (f.stage === 'child-name') this.openElement(f, p);
          else this.closeElement(f, p, at + gt + 1);
          break;
        }
        case 'closing': {
          const k = i + leadingWhitespace(text.slice(i));
          f.held += text.slice(i, k);
          if (k === text.length) return;
          // Text after the closing tag: it was part of the value.
          this.rejectCloser(f);
          i = k;
          break;
        }
        case 'body':
          this.bodyText(f, text.slice(i), at + i);
          return;
        case 'raw-header':
          // The block's attributes (`type="object"`): not read.
          return;
        case 'raw':
          if (f.args === '') f.call.argumentsSpan = { start: at + i, end: at + i };
          this.sendArguments(f, text.slice(i));
          if (f.call.argumentsSpan) f.call.argumentsSpan.end = at + text.length;
          return;
      }
    }
  }

  private bodyText(f: OpenFunction, text: string, at: number): void {
    this.strayText(f.junk, text, at, `text inside ${this.syntax.words.functionBegin} outside any parameter`);
  }

  /**
   * Text where the format has none (in the wrapper outside a function, in a function outside a parameter): content,
   * noted once per stretch. Whitespace around it is layout, held back; whitespace between two stray texts is theirs.
   */
  private strayText(stray: StrayText, text: string, at: number, why: string): void {
    const i = leadingWhitespace(text);
    if (stray.whitespace === '' && i > 0) stray.whitespaceAt = at;
    stray.whitespace += text.slice(0, i);
    if (i === text.length) return;
    const j = trimmedLength(text);
    const noted = this.notes[stray.note];
    if (noted) {
      noted.span.end = at + j;
      if (stray.whitespace) this.emitContent(stray.whitespace, stray.whitespaceAt);
    } else {
      stray.note = this.notes.length;
      this.note('text-in-section', at + i, at + j, why);
    }
    stray.whitespace = '';
    this.emitContent(text.slice(i, j), at + i);
    if (j < text.length) {
      stray.whitespace = text.slice(j);
      stray.whitespaceAt = at + j;
    }
  }

  private valueText(f: OpenFunction, text: string, at: number): void {
    const p = f.param;
    if (!p || !text) return;
    const child = p.open[p.open.length - 1];
    if (child) {
      child.text += text;
      if (f.call.argumentsSpan) f.call.argumentsSpan.end = at + text.length;
      return;
    }
    let piece = text;
    if (!p.started) {
      if (this.syntax.valueLayout === 'verbatim') {
        p.started = true;
      } else if (this.syntax.valueLayout === 'newline') {
        p.started = true;
        if (piece.startsWith('\n')) piece = piece.slice(1);
      } else {
        piece = piece.slice(leadingWhitespace(piece));
        p.started = piece !== '';
      }
    }
    p.value += piece;
    if (f.call.argumentsSpan) f.call.argumentsSpan.end = at + text.length;
    if (!p.streaming) return;
    // Hold back possible layout before the closer and half a surrogate pair.
    let safe: number;
    if (this.syntax.valueLayout === 'verbatim') {
      safe = p.value.length;
    } else if (this.syntax.valueLayout === 'newline') {
      safe = p.value.length;
      if (p.value.charCodeAt(safe - 1) === 10) safe--;
    } else {
      safe = trimmedLength(p.value);
    }
    const last = p.value.charCodeAt(safe - 1);
    if (last >= 0xd800 && last <= 0xdbff) safe--;
    if (safe > p.sent) {
      this.sendArguments(f, JSON.stringify(p.value.slice(p.sent, safe)).slice(1, -1));
      p.sent = safe;
    }
  }

  // ---- markers -------------------------------------------------------------------------------------

  protected marker(m: Marker, at: number): void {
    this.dispatch(m, at, at + m.text.length);
  }

  /** Special tokens go in the parse's marker list where they act as markup (a closing tag inside a value waits). */
  private record(m: Marker, start: number): void {
    if (this.tokens.has(m.text)) this.markerList.push({ name: m.name, text: m.text, span: { start, end: start + m.text.length } });
  }

  private dispatch(m: Marker, start: number, end: number): void {
    switch (this.st) {
      case 'content':
        this.record(m, start);
        return this.markerInContent(m, start, end);
      case 'reasoning':
        this.record(m, start);
        return this.markerInReasoning(m, start, end);
      case 'section':
        this.record(m, start);
        return this.markerInSection(m, start, end);
      default:
        return this.markerInFunction(m, start, end);
    }
  }

  private markerInContent(m: Marker, start: number, end: number): void {
    if (this.thinkMarkerInContent(m, start, end)) return;
    switch (m.name) {
      case 'call-begin':
        if (this.syntax.wrapped) this.openWrap(start);
        else this.openFunction(start, end, m.text);
        return;
      case 'function-begin':
        this.note('missing-section-begin', start, end, `${this.syntax.words.functionBegin} without ${this.syntax.words.callBegin}`);
        this.openFunction(start, end, m.text);
        return;
      case 'call-end':
        this.note('stray-marker', start, end, `${this.syntax.words.callEnd} without ${this.syntax.words.callBegin}`);
        return;
      default:
        return;
    }
  }

  private markerInReasoning(m: Marker, start: number, end: number): void {
    // Whitespace right after `</think>` is layout.
    if (this.markerInThink(m, start, end, m.name === 'think-end')) this.skipLayout = true;
  }

  private markerInSection(m: Marker, start: number, end: number): void {
    this.section = strayText();
    switch (m.name) {
      case 'function-begin':
        this.openFunction(start, end, m.text);
        return;
      case 'call-end':
        this.closeWrap(end);
        return;
      case 'call-begin':
        this.missingWrapEnd(start);
        this.openWrap(start);
        return;
      default:
        this.missingWrapEnd(start);
        this.wrapStart = null;
        this.st = 'content';
        return;
    }
  }

  private markerInFunction(m: Marker, start: number, end: number): void {
    const f = this.fn as OpenFunction;
    switch (f.stage) {
      case 'name':
      case 'name-attrs':
        if (f.stage === 'name' && m.name === 'header-end') {
          this.record(m, start);
          if (!this.nameDone(f, end, m.text)) this.skipLayout = false;
          return;
        }
        if (f.stage === 'name' && m.name === 'name-end') {
          this.record(m, start);
          this.nameDone(f, end, m.text);
          return;
        }
        // The name never got its end: where a tag must end it, this was no call.
        if (f.stage === 'name' && this.nameEndTag) {
          this.notACall(f, `${f.beginText} without ${this.syntax.words.nameEnd ?? 'its name end'}: not a call`);
          return this.recognised(m) ? this.dispatch(m, start, end) : this.text(m.text, start);
        }
        // The name (or its header) never got its end.
        if (!this.nameDone(f, start, '')) return this.dispatch(m, start, end);
        return this.markerInFunction(m, start, end);
      case 'raw-header':
      case 'raw':
        this.record(m, start);
        if (m.name === 'header-end') {
          f.stage = 'raw';
          return;
        }
        if (m.name === 'raw-end') {
          f.stage = 'body';
          return;
        }
        if (this.inFunction(m.name) === 'function-end') {
          // The call's end closes the block that never closed (the engines cut the call body there first).
          this.note('stray-marker', start, start, `${m.text} before the raw block's end: the block ends here`);
          f.stage = 'body';
          return this.markerInBody(f, m, start, end);
        }
        this.closeFunction(start, false, 'the turn ends inside the call');
        this.afterFunction(false);
        return;
      case 'param-name':
      case 'key-attrs':
        return this.markerInKey(f, m, start, end);
      case 'key-done':
        this.record(m, start);
        if (m.name !== 'value-begin') {
          this.note('stray-marker', start, end, `${this.syntax.words.valueBegin ?? ''} missing after the key "${f.paramNameRaw.trim()}"`);
          this.openParam(f);
          return this.markerInValue(f, m, start, end);
        }
        this.openParam(f);
        return;
      case 'value':
        return this.markerInValue(f, m, start, end);
      case 'closing':
        return this.markerWhileClosing(f, m, start, end);
      case 'body':
        this.record(m, start);
        return this.markerInBody(f, m, start, end);
    }
  }

  private markerInKey(f: OpenFunction, m: Marker, start: number, end: number): void {
    if (m.name === 'header-end') {
      this.record(m, start);
      this.openParam(f);
      return;
    }
    if (m.name === 'key-end') {
      this.record(m, start);
      f.stage = 'key-done';
      return;
    }
    if (m.name === 'value-begin') {
      this.record(m, start);
      this.note('stray-marker', start, end, `${this.syntax.words.keyEnd ?? ''} missing: ${m.text} ends the key "${f.paramNameRaw.trim()}"`);
      this.openParam(f);
      return;
    }
    this.openParam(f);
    return this.markerInFunction(m, start, end);
  }

  private markerInValue(f: OpenFunction, m: Marker, start: number, end: number): void {
    const p = f.param as OpenParam;
    if (this.syntax.elementValues && (m.name === 'parameter-begin' || m.name === 'parameter-end')) {
      const keyEnd = this.syntax.keyEnd ?? '>';
      // A whole closing tag (`</parameter>`) names nothing: it closes the innermost open element.
      if (m.name === 'parameter-end' && m.text.endsWith(keyEnd)) {
        p.tag = p.open[p.open.length - 1]?.name ?? p.name;
        return this.closeElement(f, p, end);
      }
      f.stage = m.name === 'parameter-begin' ? 'child-name' : 'closer-name';
      p.tag = '';
      return;
    }
    switch (this.inFunction(m.name)) {
      case 'parameter-begin':
        if (p.value === '' || p.value.endsWith('\n')) {
          this.note(
            'stray-marker',
            start,
            end,
            `${this.syntax.words.parameterBegin} before ${this.syntax.words.parameterEnd}: the value of "${p.name}" ends here`,
          );
          this.closeParam(f);
          this.record(m, start);
          this.startParamName(f);
        } else {
          this.valueText(f, m.text, start);
        }
        return;
      case 'end-of-turn':
        this.record(m, start);
        this.closeFunction(start, false, 'the turn ends inside the call');
        this.afterFunction(false);
        return;
      case 'parameter-end':
      case 'function-end':
      case 'call-end':
        // A closing tag: structural only if the right tag (or the end) follows.
        f.stage = 'closing';
        f.closer = m;
        f.closerAt = start;
        f.held = m.text;
        return;
      default:
        this.valueText(f, m.text, start);
        return;
    }
  }

  private markerWhileClosing(f: OpenFunction, m: Marker, start: number, end: number): void {
    const closer = f.closer as Marker;
    if (!(this.followers[closer.name] ?? []).includes(m.name)) {
      this.rejectCloser(f);
      return this.markerInFunction(m, start, end);
    }
    this.confirmCloser(f);
    // The closer may have ended the function: the follower acts wherever that left us.
    return this.dispatch(m, start, end);
  }

  private markerInBody(f: OpenFunction, m: Marker, start: number, end: number): void {
    f.junk = strayText();
    switch (this.inFunction(m.name)) {
      case 'parameter-begin':
        this.startParamName(f);
        return;
      case 'raw-begin':
        if (f.params > 0 || f.raw) {
          this.note('stray-marker', start, end, `${m.text} after the call's arguments: its block is not read`);
          return;
        }
        f.raw = true;
        f.stage = 'raw-header';
        return;
      case 'function-end':
        this.closeFunction(end, true, '');
        this.afterFunction(true);
        return;
      case 'call-end':
        // `</function>` missing: tolerated.
        this.closeFunction(start, true, '');
        this.afterFunction(true);
        if (this.st === 'section') this.closeWrap(end);
        return;
      case 'call-begin':
        this.closeFunction(start, false, `a new ${this.syntax.words.callBegin} begins before this call ended`);
        this.afterFunction(false);
        if (this.st === 'section') this.missingWrapEnd(start);
        this.openWrap(start);
        return;
      case 'function-begin':
        this.closeFunction(start, false, `a new ${this.syntax.words.functionBegin} begins before this call ended`);
        this.afterFunction(false);
        this.openFunction(start, end, m.text);
        return;
      default:
        this.closeFunction(start, false, 'the turn ends inside the call');
        this.afterFunction(false);
        return;
    }
  }

  private confirmCloser(f: OpenFunction): void {
    const closer = f.closer as Marker;
    const role = this.inFunction(closer.name);
    const at = f.closerAt;
    f.closer = null;
    f.held = '';
    f.stage = 'value';
    if (role !== 'parameter-end')
      this.note(
        'stray-marker',
        at,
        at,
        `${this.syntax.words.parameterEnd} missing: ${closer.text} ends the value of "${f.param?.name ?? ''}"`,
      );
    this.record(closer, at);
    this.closeParam(f);
    if (role === 'parameter-end') return;
    this.closeFunction(at + closer.text.length, true, '');
    this.afterFunction(true);
    if (role === 'call-end' && this.st === 'section') this.closeWrap(at + closer.text.length);
  }

  private rejectCloser(f: OpenFunction): void {
    const held = f.held;
    const at = f.closerAt;
    f.closer = null;
    f.held = '';
    f.stage = 'value';
    this.valueText(f, held, at);
  }

  // ---- structure -----------------------------------------------------------------------------------

  private openWrap(start: number): void {
    this.wrapStart = start;
    this.wrapHasFunction = false;
    this.wrapFunctionDone = false;
    this.section = strayText();
    this.st = 'section';
  }

  private closeWrap(end: number): void {
    // The call that the wrap held ends with it.
    const last = this.calls[this.calls.length - 1];
    if (this.wrapFunctionDone && last) last.span.end = end;
    this.wrapStart = null;
    this.st = 'content';
    this.skipLayout = true;
  }

  private missingWrapEnd(at: number): void {
    if (this.wrapFunctionDone)
      this.note('missing-section-end', at, at, `${this.syntax.words.functionEnd} without ${this.syntax.words.callEnd}`);
  }

  private openFunction(start: number, end: number, beginText: string): void {
    const callStart = this.wrapStart !== null && !this.wrapHasFunction ? this.wrapStart : start;
    this.wrapHasFunction = this.wrapStart !== null;
    this.fn = {
      call: newCall(this.calls.length, callStart, end),
      beginText,
      stage: 'name',
      nameRaw: '',
      nameStart: end,
      args: '',
      params: 0,
      raw: false,
      param: null,
      paramNameRaw: '',
      attrs: '',
      closer: null,
      closerAt: 0,
      held: '',
      junk: strayText(),
    };
    this.st = 'call-id';
  }

  /**
   * The name is complete; the body starts at `bodyStart` (after the name's end, `ended` as written). False when the
   * format requires a name and there is none: the call begin and what followed are content, and the parser is back
   * in content.
   */
  private nameDone(f: OpenFunction, bodyStart: number, ended: string): boolean {
    const raw = f.nameRaw;
    const lead = leadingWhitespace(raw);
    let read = this.syntax.readName?.(raw) ?? { name: raw.trim(), start: lead, end: lead + raw.trim().length };
    if (this.syntax.quotedNames) {
      const q = unquote(read.name);
      read = { name: q.text, start: read.start + q.lead, end: read.start + q.lead + q.text.length };
    }
    const name = read.name;
    if (name === '' && this.syntax.requireName) {
      this.notACall(f, `${f.beginText} without a function name: not a call`, ended);
      return false;
    }
    f.call.name = name;
    f.call.idSpan = { start: f.nameStart + read.start, end: f.nameStart + read.end };
    f.call.argumentsSpan = { start: bodyStart, end: bodyStart };
    f.stage = 'body';
    this.st = 'call-arguments';
    this.announce(f.call);
    return true;
  }

  /** The call begin and what followed it are content after all (noted); the parser is back in content. */
  private notACall(f: OpenFunction, why: string, ended = ''): void {
    this.fn = null;
    this.st = this.wrapStart !== null ? 'section' : 'content';
    this.note('stray-marker', f.call.span.start, f.nameStart, why);
    this.emitContent(f.beginText + f.nameRaw + ended, f.call.span.start);
  }

  private startParamName(f: OpenFunction): void {
    f.stage = 'param-name';
    f.paramNameRaw = '';
  }

  private openParam(f: OpenFunction): void {
    const read = this.syntax.readKey ? this.syntax.readKey(f.paramNameRaw) : { key: f.paramNameRaw.trim() };
    const name = this.syntax.quotedNames ? unquote(read.key).text : read.key;
    const byAttribute = f.stage === 'key-attrs' ? this.syntax.attributeType?.(f.attrs) : undefined;
    const type = byAttribute ?? (read.type === undefined ? this.types.of(f.call.name, name) : writtenType(read.type));
    f.attrs = '';
    const streaming = type.string && !type.nullable && !this.syntax.elementValues;
    f.param = { name, type, streaming, value: '', started: false, sent: 0, open: [], children: [], tag: '' };
    f.stage = 'value';
    this.sendArguments(f, `${f.params === 0 ? '{' : ', '}${JSON.stringify(name)}: ${streaming ? '"' : ''}`);
    f.params++;
  }

  /** A child element's opening tag ended: the value's text goes to it until it closes. */
  private openElement(f: OpenFunction, p: OpenParam): void {
    p.open.push({ name: p.tag, text: '', children: [] });
    p.tag = '';
    f.stage = 'value';
  }

  /**
   * A closing tag ended at `end`: it closes the innermost open child, or the parameter itself. A name other than the
   * element's is noted; the element closes all the same.
   */
  private closeElement(f: OpenFunction, p: OpenParam, end: number): void {
    const name = p.tag;
    p.tag = '';
    const inner = p.open[p.open.length - 1];
    const expected = inner ? inner.name : p.name;
    if (name !== expected) {
      const start = end - name.length - 1;
      this.note('stray-marker', start, end, `the closing tag names "${name}" where "${expected}" is open: it closes "${expected}"`);
    }
    f.stage = 'value';
    if (inner) this.foldElement(p);
    else this.closeParam(f);
  }

  /** The innermost open child is complete: it joins its parent's children. */
  private foldElement(p: OpenParam): void {
    const child = p.open.pop() as ElementNode;
    const parent = p.open[p.open.length - 1];
    (parent ? parent.children : p.children).push(child);
  }

  /** Ends the open parameter's value: the rest of it (its trailing layout trimmed) goes out. */
  private closeParam(f: OpenFunction, complete = true): void {
    const p = f.param;
    if (!p) return;
    const layout = this.syntax.valueLayout;
    const value =
      layout === 'verbatim'
        ? p.value
        : layout === 'newline'
          ? p.value.endsWith('\n')
            ? p.value.slice(0, -1)
            : p.value
          : p.value.slice(0, trimmedLength(p.value));
    while (p.open.length > 0) this.foldElement(p);
    if (p.children.length > 0) {
      const root: ElementNode = { name: p.name, text: value, children: p.children };
      this.sendArguments(f, JSON.stringify(elementValue(root, this.types.schema(f.call.name, p.name))));
    } else if (p.streaming) {
      if (value.length > p.sent) this.sendArguments(f, JSON.stringify(value.slice(p.sent)).slice(1, -1));
      if (complete) this.sendArguments(f, '"');
    } else if (complete || value !== '') {
      this.sendArguments(f, p.type.string ? stringValueJson(value, p.type) : typedValueJson(value, p.type));
    }
    f.param = null;
    f.stage = 'body';
  }

  private sendArguments(f: OpenFunction, fragment: string): void {
    f.args += fragment;
    this.out.addArguments(f.call.index, fragment);
  }

  private closeFunction(end: number, terminated: boolean, why: string): void {
    const f = this.fn;
    if (!f) return;
    if ((f.stage === 'name' || f.stage === 'name-attrs') && !this.nameDone(f, end, '')) return;
    if (f.stage === 'param-name' || f.stage === 'key-attrs' || f.stage === 'key-done') this.openParam(f);
    if (terminated) {
      this.closeParam(f);
      // A raw block's text is the arguments as written.
      if (!f.raw) this.sendArguments(f, f.params === 0 ? '{}' : '}');
    } else {
      this.closeParam(f, false);
      this.note('unterminated-call', f.call.span.start, end, why);
    }
    f.call.arguments = f.args;
    f.call.span.end = end;
    f.call.terminated = terminated;
    this.calls.push(f.call);
    this.fn = null;
  }

  private confirmCloserAtEnd(f: OpenFunction): void {
    const closer = f.closer as Marker;
    if (this.inFunction(closer.name) === 'parameter-end') {
      f.closer = null;
      f.held = '';
      f.stage = 'value';
      this.record(closer, f.closerAt);
      this.closeParam(f);
      return;
    }
    this.confirmCloser(f);
  }

  /** After a function closed: back in the wrap (waiting for its end) or in content. */
  private afterFunction(completed: boolean): void {
    if (this.wrapStart !== null) {
      this.wrapFunctionDone = completed;
      this.section = strayText();
      this.st = 'section';
    } else {
      this.st = 'content';
      this.skipLayout = true;
    }
  }

  protected endInCall(at: number): void {
    if (this.st === 'section') {
      if (this.wrapFunctionDone) this.missingWrapEnd(at);
      else if (!this.wrapHasFunction)
        this.note(
          'unterminated-call',
          this.wrapStart ?? at,
          at,
          `the stream ended inside ${this.syntax.words.callBegin} before any function`,
        );
      this.wrapStart = null;
      this.st = 'content';
      return;
    }
    const f = this.fn as OpenFunction;
    if (f.stage === 'closing') {
      this.confirmCloserAtEnd(f);
      if (!this.fn) {
        // The end confirmed a closing tag that ended the function; close what is around it.
        this.end(at);
        return;
      }
    }
    this.closeFunction(at, false, 'the stream ended inside the call');
    this.afterFunction(false);
    this.end(at);
  }
}
