/**
 * Pythonic tool calls — `f(a=1, b="x")` and lists of them, `[f(a=1), g()]` — read as vLLM's pythonic parsers read
 * them (`handle_single_tool` and `get_parameter_value` in vllm/tool_parsers/utils.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e, shared by the `pythonic`, `llama4_pythonic`, Olmo 3 and LFM2 parsers):
 * the text must be Python syntax (`ast.parse`); a call's name is a plain or dotted name (`a.b.c(…)` is named
 * `a.b.c`); each keyword argument's value must be a literal — a constant (string, number, True, False, None), the
 * JSON spellings `null`/`true`/`false`, a signed number (`-1`), an f-string without placeholders, a list, tuple or
 * set of literals (tuples and sets become lists, in the order written) or a dict whose keys are constants — and the
 * call's arguments are `json.dumps(keywords, ensure_ascii=False)`. Anything else (a nested call, another bare name,
 * an f-string with a placeholder, an operation) makes vLLM give the whole output back as text; here it is reported
 * with what it is, never guessed. Positional arguments are dropped by vLLM (it reads `call.keywords` only) and are
 * reported too. Older vLLM (vllm/entrypoints/openai/tool_parsers/pythonic_tool_parser.py @
 * 630fe7e7a7a4f13533d4c130804bff933130f1fd) and SGLang's PythonicDetector read constants, lists and dicts only
 * (docs/formats/pythonic.md).
 *
 * Pure and linear: one pass over the text, no regular expression over unbounded input.
 */
import { dumpsArray, dumpsObject, dumpsString, pyFloatRepr } from './pythonJson.ts';

/** A value as the engine reads it: its JSON text, or why it has none. */
export type PyValue = { json: string; problem?: undefined } | { json?: undefined; problem: string };

export interface PyCall {
  name: string;
  /** Offsets in the text: the name's first character, and just past the closing parenthesis. */
  start: number;
  end: number;
  keywords: Array<{ key: string; value: PyValue }>;
  /** Positional arguments (vLLM drops them), as written. */
  positional: string[];
}

export interface PyCallList {
  calls: PyCall[];
  /** The `[` and just past the `]`. */
  start: number;
  end: number;
}

/** The call's arguments as vLLM sends them (json.dumps of the keywords), or null with the reasons it cannot be. */
export function pyCallArguments(call: PyCall): { json: string | null; problems: string[] } {
  const problems = call.keywords.filter((k) => k.value.problem !== undefined).map((k) => `${k.key}: ${k.value.problem}`);
  for (const p of call.positional)
    problems.push(`positional argument ${JSON.stringify(p)}: vLLM reads keyword arguments only and drops it`);
  const bad = call.keywords.some((k) => k.value.problem !== undefined);
  return { json: bad ? null : dumpsObject(call.keywords.map((k) => [k.key, k.value.json as string])), problems };
}

const ID_START = /[A-Za-z_]/u;
const ID_PART = /[A-Za-z0-9_]/u;
const CLOSERS = ',)]}:';

class Syntax extends Error {}

/** A reader over `text` from `pos`; every method either advances past what it read or throws Syntax. */
/** Deeper nesting than this is refused (as Python's parser refuses very deep nesting), so no input can exhaust the stack. */
const MAX_DEPTH = 32;
/** A call longer than this is not read: a stray parenthesis never makes the reader walk the rest of a long text. */
export const MAX_CALL_LENGTH = 200_000;

class Reader {
  private depth = 0;
  /** Reading stops here (MAX_CALL_LENGTH past the start). */
  private readonly limit: number;

  constructor(
    readonly text: string,
    public pos: number,
  ) {
    this.limit = Math.min(text.length, pos + MAX_CALL_LENGTH);
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new Syntax();
  }

  peek(): string {
    return this.pos < this.limit ? (this.text[this.pos] as string) : '';
  }

  /** Whitespace, newlines and comments: all allowed inside brackets. */
  ws(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') this.pos++;
      else if (c === '#') while (this.pos < this.limit && this.peek() !== '\n') this.pos++;
      else if (c === '\\' && this.text[this.pos + 1] === '\n') this.pos += 2;
      else return;
    }
  }

  identifier(): string {
    const start = this.pos;
    if (!ID_START.test(this.peek())) throw new Syntax();
    while (ID_PART.test(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** `name(args)` at the current position. */
  call(): PyCall {
    const start = this.pos;
    let name = this.identifier();
    this.ws();
    // A dotted name (`a.b.c(…)`): vLLM names the call by the whole chain.
    while (this.peek() === '.') {
      this.pos++;
      this.ws();
      name += `.${this.identifier()}`;
      this.ws();
    }
    if (this.peek() !== '(') throw new Syntax();
    this.pos++;
    const keywords: PyCall['keywords'] = [];
    const positional: string[] = [];
    for (;;) {
      this.ws();
      if (this.peek() === ')') break;
      if (this.peek() === '*') {
        const at = this.pos;
        this.pos += this.text[this.pos + 1] === '*' ? 2 : 1;
        this.expression();
        // Unpacking has no literal meaning: report it as a keyword-less problem.
        keywords.push({ key: this.text.slice(at, this.pos).trim(), value: { problem: 'argument unpacking is not a literal' } });
      } else {
        const at = this.pos;
        let key: string | null = null;
        if (ID_START.test(this.peek())) {
          const id = this.identifier();
          this.ws();
          if (this.peek() === '=' && this.text[this.pos + 1] !== '=') {
            this.pos++;
            key = id;
          } else this.pos = at;
        }
        const value = this.expression();
        if (key === null) {
          // Python refuses a positional argument after a keyword one.
          if (keywords.length) throw new Syntax();
          positional.push(this.text.slice(at, this.pos).trim());
        } else {
          if (keywords.some((k) => k.key === key)) throw new Syntax();
          keywords.push({ key, value });
        }
      }
      this.ws();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== ')') throw new Syntax();
    }
    this.pos++;
    return { name, start, end: this.pos, keywords, positional };
  }

  /** One expression up to a `,` or a closing bracket at this level. */
  expression(): PyValue {
    this.enter();
    this.ws();
    const value = this.primary();
    this.depth--;
    this.ws();
    if (this.pos >= this.limit) throw new Syntax();
    if (CLOSERS.includes(this.peek()) || (this.peek() === '=' && this.text[this.pos + 1] !== '=')) return value;
    // More follows (an operator, a subscript, a conditional…): an expression, not a literal. Skip it, brackets and strings respected.
    this.skipRest();
    return value.problem !== undefined ? value : { problem: 'an expression, not a literal' };
  }

  private skipRest(): void {
    let depth = 0;
    while (this.pos < this.limit) {
      const c = this.peek();
      if (depth === 0 && CLOSERS.includes(c)) return;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      if (c === '"' || c === "'") this.string('');
      else this.pos++;
    }
    throw new Syntax();
  }

  private primary(): PyValue {
    const c = this.peek();
    const prefix = /^[rRbBuUfF]{1,2}(?=["'])/u.exec(this.text.slice(this.pos, this.pos + 3));
    if (c === '"' || c === "'" || prefix) return this.strings();
    if (/[0-9]/u.test(c) || (c === '.' && /[0-9]/u.test(this.text[this.pos + 1] ?? ''))) return this.number();
    if (c === '[') return this.list();
    if (c === '(') return this.parenthesized();
    if (c === '{') return this.dictOrSet();
    if (c === '-' || c === '+' || c === '~') {
      this.pos++;
      this.ws();
      const operand = this.primary();
      // A signed number is read as the number (vLLM: UnaryOp USub/UAdd over an int or float, not a bool).
      if (c !== '~' && operand.json !== undefined && /^-?\d/u.test(operand.json))
        return { json: c === '-' ? negate(operand.json) : operand.json };
      if (operand.problem !== undefined) return operand;
      return {
        problem: `a unary ${c === '-' ? 'minus' : c === '+' ? 'plus' : 'operator'} over a non-number is an operation (ast.UnaryOp), not a literal`,
      };
    }
    if (ID_START.test(c)) {
      const at = this.pos;
      const id = this.identifier();
      if (id === 'True' || id === 'False' || id === 'None') return { json: id === 'None' ? 'null' : id.toLowerCase() };
      // The JSON spellings some models write; vLLM reads them as the values (_JSON_NAME_LITERALS).
      if (id === 'null' || id === 'true' || id === 'false') {
        const save = this.pos;
        this.ws();
        const next = this.peek();
        this.pos = save;
        if (next !== '(' && next !== '.') return { json: id };
      }
      this.ws();
      if (this.peek() === '(') {
        this.pos = at;
        const inner = this.call();
        return { problem: `a call (${inner.name}(…)) is not a literal` };
      }
      if (this.peek() === '.') return { problem: `${id}.… is an attribute, not a literal` };
      return { problem: `a bare name (${id}) is not a literal` };
    }
    throw new Syntax();
  }

  /** One or more adjacent string literals, joined as Python joins them. */
  private strings(): PyValue {
    let out = '';
    let problem: string | undefined;
    let kinds = '';
    for (;;) {
      const prefix = (/^[rRbBuUfF]{0,2}(?=["'])/u.exec(this.text.slice(this.pos, this.pos + 3)) as RegExpExecArray)[0].toLowerCase();
      if (!/^(?:|r|u|b|f|br|rb|fr|rf)$/u.test(prefix)) throw new Syntax();
      this.pos += prefix.length;
      const decoded = this.string(prefix);
      kinds += prefix.includes('b') ? 'b' : 's';
      let text = decoded.text;
      if (prefix.includes('f')) {
        // Without a placeholder an f-string is its text (`{{` and `}}` stand for braces), as vLLM joins it.
        const unescaped = text.replace(/\{\{|\}\}/gu, (b) => b[0] as string);
        if (/[{}]/u.test(text.replace(/\{\{|\}\}/gu, '')))
          problem ??= 'an f-string with a placeholder is an expression (ast.JoinedStr), not a literal';
        else text = unescaped;
      }
      if (decoded.problem) problem ??= decoded.problem;
      out += text;
      const save = this.pos;
      this.ws();
      if (!/^[rRbBuUfF]{0,2}["']/u.test(this.text.slice(this.pos, this.pos + 3))) {
        this.pos = save;
        break;
      }
    }
    if (kinds.includes('b') && kinds.includes('s')) throw new Syntax();
    if (kinds.includes('b')) return { problem: 'bytes have no JSON form (json.dumps refuses them)' };
    return problem ? { problem } : { json: dumpsString(out) };
  }

  /** A string literal at the current quote; its decoded text (escapes resolved unless raw). */
  string(prefix: string): { text: string; problem?: string } {
    const q = this.peek();
    const triple = this.text.startsWith(q.repeat(3), this.pos);
    const close = triple ? q.repeat(3) : q;
    this.pos += close.length;
    const raw = prefix.includes('r');
    let out = '';
    let problem: string | undefined;
    for (;;) {
      if (this.pos >= this.limit) throw new Syntax();
      if (this.text.startsWith(close, this.pos)) {
        this.pos += close.length;
        return problem ? { text: out, problem } : { text: out };
      }
      const c = this.peek();
      if (c === '\n' && !triple) throw new Syntax();
      if (c !== '\\') {
        out += c;
        this.pos++;
        continue;
      }
      const e = this.text[this.pos + 1] ?? '';
      if (raw) {
        out += c + e;
        this.pos += 2;
        continue;
      }
      this.pos += 2;
      const simple: Record<string, string> = {
        '\\': '\\',
        "'": "'",
        '"': '"',
        a: '\x07',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
        v: '\v',
        '\n': '',
      };
      if (e in simple) out += simple[e];
      else if (/[0-7]/u.test(e)) {
        let digits = e;
        while (digits.length < 3 && /[0-7]/u.test(this.peek())) digits += this.text[this.pos++];
        out += String.fromCodePoint(parseInt(digits, 8));
      } else if (e === 'x' || e === 'u' || e === 'U') {
        const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = this.text.slice(this.pos, this.pos + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`, 'u').test(hex) || parseInt(hex, 16) > 0x10ffff) throw new Syntax();
        out += String.fromCodePoint(parseInt(hex, 16));
        this.pos += n;
      } else if (e === 'N') {
        const end = this.text.indexOf('}', this.pos);
        if (this.peek() !== '{' || end < 0) throw new Syntax();
        problem ??= `the named escape \\N${this.text.slice(this.pos, end + 1)} is not resolved here`;
        this.pos = end + 1;
      } else out += c + e;
    }
  }

  private number(): PyValue {
    const rest = this.text.slice(this.pos, this.pos + 512);
    const based = /^0(?:[xX](?:_?[0-9a-fA-F])+|[oO](?:_?[0-7])+|[bB](?:_?[01])+)/u.exec(rest);
    if (based) {
      this.pos += based[0].length;
      if (ID_PART.test(this.peek())) throw new Syntax();
      return { json: BigInt(based[0].replace(/_/gu, '')).toString() };
    }
    const m = /^(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?/u.exec(rest) as RegExpExecArray;
    const t = m[0];
    this.pos += t.length;
    if (!t || ID_PART.test(this.peek())) throw new Syntax();
    if (/[jJ]$/u.test(t)) return { problem: 'a complex number has no JSON form' };
    const plain = t.replace(/_/gu, '');
    if (/^\d+$/u.test(plain)) {
      // Python refuses leading zeros in a non-zero decimal integer.
      if (/^0\d/u.test(plain) && /[1-9]/u.test(plain)) throw new Syntax();
      return { json: BigInt(plain).toString() };
    }
    const f = pyFloatRepr(Number(plain));
    return f === null ? { problem: `${t} overflows to inf, which json.dumps writes as Infinity (not JSON)` } : { json: f };
  }

  private items(closer: string): PyValue[] {
    const out: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.peek() === closer) break;
      out.push(this.expression());
      this.ws();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== closer) throw new Syntax();
    }
    this.pos++;
    return out;
  }

  private list(): PyValue {
    this.pos++;
    const items = this.items(']');
    const bad = items.find((v) => v.problem !== undefined);
    return bad ? { problem: `a list holding ${bad.problem}` } : { json: dumpsArray(items.map((v) => v.json as string)) };
  }

  private parenthesized(): PyValue {
    this.pos++;
    this.ws();
    if (this.peek() === ')') {
      this.pos++;
      return { json: '[]' };
    }
    const first = this.expression();
    this.ws();
    if (this.peek() === ')') {
      this.pos++;
      return first;
    }
    if (this.peek() !== ',') throw new Syntax();
    this.pos++;
    // A tuple is written as a list (vLLM: JSON has no tuple).
    const items = [first, ...this.items(')')];
    const bad = items.find((v) => v.problem !== undefined);
    return bad ? { problem: `a tuple holding ${bad.problem}` } : { json: dumpsArray(items.map((v) => v.json as string)) };
  }

  private dictOrSet(): PyValue {
    this.pos++;
    this.ws();
    if (this.peek() === '}') {
      this.pos++;
      return { json: '{}' };
    }
    const entries: Array<[string, string]> = [];
    const members: PyValue[] = [];
    let problem: string | undefined;
    let isSet = false;
    for (let first = true; ; first = false) {
      this.ws();
      if (this.peek() === '}') break;
      if (this.text.startsWith('**', this.pos)) {
        this.pos += 2;
        this.expression();
        problem ??= 'dict unpacking is not a literal';
      } else {
        const keyAt = this.pos;
        const key = this.expression();
        this.ws();
        if (first && this.peek() !== ':') isSet = true;
        if (isSet) {
          if (this.peek() === ':') throw new Syntax();
          members.push(key);
        } else {
          if (this.peek() !== ':') throw new Syntax();
          this.pos++;
          const value = this.expression();
          const k = dictKey(key, this.text.slice(keyAt, this.pos));
          if (k.problem !== undefined) problem ??= k.problem;
          else if (value.problem !== undefined) problem ??= `a dict holding ${value.problem}`;
          else entries.push([k.key, value.json as string]);
        }
      }
      this.ws();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== '}') throw new Syntax();
    }
    this.pos++;
    if (isSet) {
      // A set is written as a list in the order written (vLLM walks the set's elements as parsed).
      const bad = members.find((v) => v.problem !== undefined);
      if (bad) return { problem: `a set holding ${bad.problem}` };
      return problem ? { problem } : { json: dumpsArray(members.map((v) => v.json as string)) };
    }
    return problem ? { problem } : { json: dumpsObject(entries) };
  }
}

/** The negation of a number's JSON text, as Python negates it (ints exactly, floats by their repr). */
function negate(json: string): string {
  if (/^-?\d+$/u.test(json)) return (-BigInt(json)).toString();
  return pyFloatRepr(-Number(json)) as string;
}

/** A dict key as json.dumps writes it: strings as they are, numbers, True/False/None as text; anything else has none. */
function dictKey(key: PyValue, written: string): { key: string; problem?: undefined } | { key?: undefined; problem: string } {
  if (key.problem !== undefined || key.json === undefined) return { problem: 'a dict key that is not a constant' };
  if (key.json.startsWith('"')) return { key: JSON.parse(key.json) as string };
  if (key.json.startsWith('[') || key.json.startsWith('{')) return { problem: `the dict key ${written.trim()} is not hashable` };
  return { key: key.json };
}

/** The call `name(…)` at `at`, or null when the text there is not one in Python's syntax. */
export function readPyCall(text: string, at: number): PyCall | null {
  try {
    return new Reader(text, at).call();
  } catch (e) {
    if (e instanceof Syntax) return null;
    throw e;
  }
}

/** A list of calls `[f(…), g(…)]` at `at` (every element a call, at least one), or null. */
export function readPyCallList(text: string, at: number): PyCallList | null {
  if (text[at] !== '[') return null;
  const r = new Reader(text, at + 1);
  const calls: PyCall[] = [];
  try {
    for (;;) {
      r.ws();
      if (r.peek() === ']') break;
      calls.push(r.call());
      r.ws();
      if (r.peek() === ',') r.pos++;
      else if (r.peek() !== ']') return null;
    }
  } catch (e) {
    if (e instanceof Syntax) return null;
    throw e;
  }
  if (!calls.length) return null;
  return { calls, start: at, end: r.pos + 1 };
}
