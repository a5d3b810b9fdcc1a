/**
 * Canonical JSON: object keys sorted (undefined members dropped, as JSON does), so equal data hash equally.
 * Written without recursion: a hostile tool schema nested thousands of levels deep must not overflow the stack.
 */

/** Text written as is (punctuation, a key), told apart from the values still to write. */
class Raw {
  constructor(readonly text: string) {}
}

const COMMA = new Raw(',');
const CLOSE_ARRAY = new Raw(']');
const CLOSE_OBJECT = new Raw('}');

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof Raw) {
      out.push(v.text);
    } else if (Array.isArray(v)) {
      out.push('[');
      stack.push(CLOSE_ARRAY);
      // Array members that are undefined print as null, as JSON.stringify does.
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i] === undefined ? null : v[i]);
        if (i > 0) stack.push(COMMA);
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      stack.push(CLOSE_OBJECT);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i] as [string, unknown];
        stack.push(x);
        stack.push(new Raw(`${JSON.stringify(k)}:`));
        if (i > 0) stack.push(COMMA);
      }
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}
