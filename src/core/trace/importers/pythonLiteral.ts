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
    let out = '';
    for (;;) {
      if (this.atEnd()) this.fail('unterminated string');
      if (this.s.startsWith(end, this.i)) {
        this.i += end.length;
        return out;
      }
      const c = this.s[this.i] as string;
      if (c === '\n' && !triple) this.fail('newline in a single-quoted string');
      if (c !== '\\') {
        out += c;
        this.i++;
        continue;
      }
      const n = this.s[this.i + 1] ?? '';
      if (raw) {
        out += n === q || n === '\\' ? `\\${n}` : '\\';
        this.i += n === q || n === '\\' ? 2 : 1;
        continue;
      }
      this.i += 2;
      if (n === '\n') continue;
      const simple = SIMPLE_ESCAPES[n];
      if (simple !== undefined) out += simple;
      else if (n === 'x') out += this.codePoint(2);
      else if (n === 'u') out += this.codePoint(4);
      else if (n === 'U') out += this.codePoint(8);
      else if (n >= '0' && n <= '7') {
        const m = /^[0-7]{0,2}/.exec(this.s.slice(this.i)) as RegExpExecArray;
        out += String.fromCodePoint(parseInt(n + m[0], 8));
        this.i += m[0].length;
      } else {
        // Python keeps an unknown escape as written.
        out += `\\${n}`;
      }
    }
  }

  private codePoint(digits: number): string {
    const hex = this.s.slice(this.i, this.i + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) this.fail(`bad \\${digits === 2 ? 'x' : digits === 4 ? 'u' : 'U'} escape`);
    this.i += digits;
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) this.fail('escape beyond Unicode');
    return String.fromCodePoint(cp);
  }
}

/**
 * `out[key] = value` as JSON.parse does it: an own property whatever the key, so a `__proto__` key (a dict's, a
 * keyword's) is a plain key instead of setting the object's prototype.
 */
function setOwn(out: { [key: string]: PyValue }, key: string, value: PyValue): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
}
