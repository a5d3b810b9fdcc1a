/**
 * JSON text as Python's `json.dumps(value, ensure_ascii=False)` writes it — the arguments text the Python engines
 * (vLLM, SGLang) send when a parser builds a call from a Python value: `", "` and `": "` as separators, floats in
 * Python's shortest repr (`1.0`, `1e+16`, `1.5e-07`), integers as their exact digits, non-ASCII kept. Also
 * `json.loads` followed by `json.dumps` over a JSON text, keeping what JavaScript's `JSON.parse` would lose (`5.0`
 * stays a float, big integers keep their digits).
 */

/** A JSON string as json.dumps writes it (JSON.stringify escapes the same characters ensure_ascii=False does). */
export function dumpsString(s: string): string {
  return JSON.stringify(s);
}

/** Python's repr of a float, as json.dumps writes it; null for inf and nan (json.dumps writes `Infinity`/`NaN`, which are not JSON). */
export function pyFloatRepr(x: number): string | null {
  if (!Number.isFinite(x)) return null;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest digits that round-trip, as Python's repr does.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/u.exec(x.toExponential()) as RegExpExecArray;
  const sign = m[1] as string;
  const digits = (m[2] as string) + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < -4 || exp >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}.${frac || '0'}`;
}

/** Python's `int(s)` for a decimal text (sign, digits, single underscores between digits), as exact digits; null when int() refuses it. */
export function pyIntText(s: string): string | null {
  const t = s.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/u.test(t)) return null;
  return BigInt(t.replace(/_/gu, '')).toString();
}

/** Python's `float(s)` for a text, or null when float() refuses it (nan and inf parse, as in Python). */
export function pyFloat(s: string): number | null {
  const t = s.trim();
  if (/^[+-]?(?:nan|inf|infinity)$/iu.test(t)) return t.toLowerCase().includes('nan') ? NaN : t.startsWith('-') ? -Infinity : Infinity;
  if (!/^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/u.test(t)) return null;
  return Number(t.replace(/_/gu, ''));
}

/** A JSON object's entries as json.dumps writes a dict (keys in first-insertion order, the last value of a repeated key). */
export function dumpsObject(entries: Iterable<readonly [string, string]>): string {
  const byKey = new Map<string, string>();
  for (const [k, v] of entries) byKey.set(k, v);
  return `{${[...byKey].map(([k, v]) => `${dumpsString(k)}: ${v}`).join(', ')}}`;
}

export function dumpsArray(items: readonly string[]): string {
  return `[${items.join(', ')}]`;
}

/**
 * `json.dumps(json.loads(text))`: the JSON text re-written as Python writes it, or null when `json.loads` refuses it
 * (or it holds NaN/Infinity, which Python reads but no JSON consumer does).
 */
export function pyJsonRoundTrip(text: string): string | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const value = (): string => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: Array<[string, string]> = [];
      ws();
      if (text[i] === '}') {
        i++;
        return '{}';
      }
      for (;;) {
        ws();
        const key = JSON.parse(stringToken()) as string;
        ws();
        i++; // ':'
        entries.push([key, value()]);
        ws();
        if (text[i++] === '}') return dumpsObject(entries);
      }
    }
    if (c === '[') {
      i++;
      const items: string[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return '[]';
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i++] === ']') return dumpsArray(items);
      }
    }
    if (c === '"') return dumpsString(JSON.parse(stringToken()) as string);
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/u.exec(text.slice(i, i + 400)) as RegExpExecArray;
    i += m[0].length;
    if (/^-?\d+$/u.test(m[0])) return BigInt(m[0]).toString();
    if (/^[-\d]/u.test(m[0])) {
      const f = pyFloatRepr(Number(m[0]));
      if (f === null) throw new RangeError('inf');
      return f;
    }
    return m[0];
  };
  const stringToken = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  try {
    return value();
  } catch {
    return null;
  }
}
