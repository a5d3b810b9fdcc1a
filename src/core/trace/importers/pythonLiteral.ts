/**
 * A small, strict reader for the Python printouts bug reports paste: `repr()` of the OpenAI SDK's objects
 * (`ChatCompletion(id='…', choices=[Choice(…)], …)`) and plain dict/list reprs (`{'role': 'assistant', …}`),
 * one line or pretty-printed over several. It reads literals only — strings (single, double, triple quotes;
 * `r`/`u`/`b` prefixes; the escapes Python writes), ints and floats, `None`/`True`/`False`, lists, tuples, dicts
 * with string keys — and calls with keyword arguments, read as objects of those keywords (the class name is
 * dropped: the JSON shapes it wraps are what importers recognise). Nothing is evaluated; anything else (a positional
 * argument, a bare name, `inf`, `<object at 0x…>`) is an error naming the position.
 */

export type PyValue = null | boolean | number | string | PyValue[] | { [key: string]: PyValue };

export class PythonLiteralError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Worth reading as Python: a call `Name(`, or a dict/list/tuple (JSON has failed on it already). */
export function mayBePythonLiteral(text: string): boolean {
  return /^\s*(?:[A-Za-z_][\w.]*\(|[[{(])/.test(text);
}

/** Clearly meant as Python (so its Python error is the one to report): a call, a `'` string, None/True/False. */
export function looksLikePythonLiteral(text: string): boolean {
  const head = text.trimStart().slice(0, 400);
  return /^[A-Za-z_][\w.]*\(/.test(head) || (/^[[{(]/.test(head) && /'|\b(?:None|True|False)\b/.test(head));
}

export function parsePythonLiteral(text: string): PyValue {
  const reader = new Reader(text);
  reader.space();
  const value = reader.value(0);
  reader.space();
  if (!reader.atEnd()) reader.fail('unexpected text after the value');
  return value;
}

const MAX_DEPTH = 200;
const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  a: '\u0007',
};

class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  fail(message: string): never {
    const line = this.s.slice(0, this.i).split('\n').length;
    throw new PythonLiteralError(`${message} at offset ${this.i} (line ${line} of the printout)`, this.i);
  }

  space(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.i++;
      else if (c === '\\' && this.s[this.i + 1] === '\n') this.i += 2;
      else break;
    }
  }

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private expect(c: string): void {
    if (this.s[this.i] !== c) this.fail(`expected "${c}"`);
    this.i++;
  }

  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.space();
    const c = this.peek();
    if (c === '[') return this.sequence(']', depth);
    if (c === '(') return this.sequence(')', depth);
    if (c === '{') return this.dict(depth);
    if (c === '-' || c === '+' || (c >= '0' && c <= '9') || c === '.') return this.number();
    const prefix = /^(?:[rRuUbB]|[bB][rR]|[rR][bB])?['"]/.exec(this.s.slice(this.i, this.i + 3));
    if (prefix) return this.strings();
    const name = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*/.exec(this.s.slice(this.i));
    if (name) {
      this.i += name[0].length;
      this.space();
      if (this.peek() === '(') return this.call(name[0], depth);
      if (name[0] === 'None') return null;
      if (name[0] === 'True') return true;
      if (name[0] === 'False') return false;
      this.i -= name[0].length;
      this.fail(`"${name[0]}" is not a literal`);
    }
    this.fail(c === '' ? 'unexpected end of the printout' : `unexpected "${c}"`);
  }

  private sequence(close: string, depth: number): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    for (;;) {
      this.space();
      if (this.peek() === close) {
        this.i++;
        return out;
      }
      out.push(this.value(depth + 1));
      this.space();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== close) this.fail(`expected "," or "${close}"`);
    }
  }

  private dict(depth: number): { [key: string]: PyValue } {
    this.i++;
    const out: { [key: string]: PyValue } = {};
    for (;;) {
      this.space();
      if (this.peek() === '}') {
        this.i++;
        return out;
      }
      const at = this.i;
      const key = this.value(depth + 1);
      if (typeof key !== 'string') {
        this.i = at;
        this.fail('dict keys must be strings');
      }
      this.space();
      this.expect(':');
      setOwn(out, key, this.value(depth + 1));
      this.space();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== '}') this.fail('expected "," or "}"');
    }
  }

  /** `Name(key=value, …)` → `{key: value, …}`. */
  private call(name: string, depth: number): { [key: string]: PyValue } {
    this.i++;
    const out: { [key: string]: PyValue } = {};
    for (;;) {
      this.space();
      if (this.peek() === ')') {
        this.i++;
        return out;
      }
      const key = /^[A-Za-z_]\w*(?=\s*=(?!=))/.exec(this.s.slice(this.i));
      if (!key) this.fail(`${name}(…) has a positional argument; only keyword arguments are read`);
      this.i += key[0].length;
      this.space();
      this.expect('=');
      setOwn(out, key[0], this.value(depth + 1));
      this.space();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ')') this.fail('expected "," or ")"');
    }
  }

  private number(): number {
    const m = /^[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?/.exec(this.s.slice(this.i));
    if (!m) this.fail('not a number');
    const value = Number(m[0].replace(/_/g, ''));
    if (!Number.isFinite(value)) this.fail('not a finite number');
    this.i += m[0].length;
    if (/^[jJ]/.test(this.peek())) this.fail('complex numbers are not JSON');
    return value;
  }

  /** One string literal, or several adjacent ones (Python concatenates them, and pretty-printers split long strings so). */
  private strings(): string {
    let out = this.string();
    for (;;) {
      const save = this.i;
      this.space();
      if (/^(?:[rRuU])?['"]/.test(this.s.slice(this.i, this.i + 2))) out += this.string();
      else {
        this.i = save;
        return out;
      }
    }
  }

  private string(): string {
    let raw = false;
    while (/[rRuUbB]/.test(this.peek())) {
      const p = this.peek().toLowerCase();
      if (p === 'b') this.fail('bytes literals are not text');
      if (p === 'r') raw = true;
      this.i++;
    }
    const q = this.peek();
    const triple = this.s.startsWith(q.repeat(3), this.i);
    const end = triple ? q.repeat(3) : q;
    this.i += end.length;
    // The literal's end is found first and its text taken as one slice, its escapes then replaced in one pass:
    // built a character at a time, a 50 MB string became a rope of 50 million pieces (2 GB).
    const from = this.i;
    const quote = q.charCodeAt(0);
    for (;;) {
      if (this.atEnd()) this.fail('unterminated string');
      const k = this.s.charCodeAt(this.i);
      if (k === 0x5c) {
        // A backslash keeps the next character in the literal, even a quote in a raw string.
        this.i += 2;
        continue;
      }
      if (k === quote && this.s.startsWith(end, this.i)) break;
      if (k === 0x0a && !triple) this.fail('newline in a single-quoted string');
      this.i++;
    }
    const body = this.s.slice(from, this.i);
    this.i += end.length;
    if (raw || !body.includes('\\')) return body;
    const after = this.i;
    const text = this.unescaped(body, from);
    this.i = after;
    return text;
  }

  /**
   * A literal's text (at offset `from` of the printout) with its escapes replaced. The pieces are joined a few
   * thousand at a time, so a string of millions of escapes never becomes a rope or a list of millions of pieces.
   */
  private unescaped(body: string, from: number): string {
    const chunks: string[] = [];
    let pieces: string[] = [];
    let last = 0;
    for (let at = body.indexOf('\\'); at >= 0; at = body.indexOf('\\', last)) {
      const n = body[at + 1] ?? '';
      let length = 2;
      let text: string;
      const simple = SIMPLE_ESCAPES[n];
      if (n === '\n') text = '';
      else if (simple !== undefined) text = simple;
      else if (n === 'x' || n === 'u' || n === 'U') {
        length += n === 'x' ? 2 : n === 'u' ? 4 : 8;
        const hex = body.slice(at + 2, at + length);
        this.i = from + at + 2; // where an error points
        if (hex.length !== length - 2 || !/^[0-9a-fA-F]+$/.test(hex)) this.fail(`bad \\${n} escape`);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) this.fail('escape beyond Unicode');
        text = String.fromCodePoint(cp);
      } else if (n >= '0' && n <= '7') {
        while (length < 4 && (body[at + length] ?? '') >= '0' && (body[at + length] ?? '') <= '7') length++;
        text = String.fromCodePoint(parseInt(body.slice(at + 1, at + length), 8));
      } else text = `\\${n}`; // Python keeps an unknown escape as written.
      pieces.push(body.slice(last, at), text);
      last = at + length;
      if (pieces.length >= 8192) {
        chunks.push(pieces.join(''));
        pieces = [];
      }
    }
    pieces.push(body.slice(last));
    chunks.push(pieces.join(''));
    return chunks.join('');
  }
}

/**
 * `out[key] = value` as JSON.parse does it: an own property whatever the key, so a `__proto__` key (a dict's, a
 * keyword's) is a plain key instead of setting the object's prototype.
 */
function setOwn(out: { [key: string]: PyValue }, key: string, value: PyValue): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
}
