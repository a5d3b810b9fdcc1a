/**
 * Where in a JSON document a prefix stops: the path to the innermost container, what the grammar expects next
 * (a key, a value, a comma or close), and which keys each object has seen. Used to name the schema fragment at the
 * position a grammar rejected; tolerant of whitespace anywhere, not a validator.
 */

export type JsonExpect =
  /** A value (top level, after `:`, after `[` or `,` in an array). */
  | 'value'
  /** A key or `}` (after `{`), or a key after `,`. */
  | 'key'
  /** `:` after a key. */
  | 'colon'
  /** `,` or the container's close, after a value. */
  | 'comma-or-close'
  /** Inside a string value / key, or a number or literal. */
  | 'in-value'
  | 'in-key'
  /** The document is complete. */
  | 'done';

export interface JsonFrame {
  kind: 'object' | 'array';
  /** Keys seen so far (objects). */
  keys: string[];
  /** Current key (objects) or element index (arrays). */
  at: string | number | null;
}

export interface JsonPrefixContext {
  expect: JsonExpect;
  /** Containers from the outside in. */
  frames: JsonFrame[];
  /** The key being written, when `expect` is `in-key`. */
  partialKey?: string;
}

export function jsonPrefixContext(prefix: string): JsonPrefixContext {
  const frames: JsonFrame[] = [];
  let expect: JsonExpect = 'value';
  let str: { key: boolean; text: string; escape: boolean } | null = null;
  let inLiteral = false;

  const valueDone = () => {
    expect = frames.length === 0 ? 'done' : 'comma-or-close';
  };

  for (const ch of prefix) {
    if (str) {
      if (str.escape) str.escape = false;
      else if (ch === '\\') str.escape = true;
      else if (ch === '"') {
        const s = str;
        str = null;
        if (s.key) {
          const top = frames[frames.length - 1];
          if (top) {
            top.at = s.text;
            top.keys.push(s.text);
          }
          expect = 'colon';
        } else valueDone();
        continue;
      }
      str.text += ch;
      continue;
    }
    if (inLiteral) {
      if (/[0-9A-Za-z.+-]/.test(ch)) continue;
      inLiteral = false;
      valueDone();
    }
    if (/\s/.test(ch)) continue;
    const top = frames[frames.length - 1];
    if (ch === '"') {
      str = { key: expect === 'key', text: '', escape: false };
      expect = str.key ? 'in-key' : 'in-value';
    } else if (ch === '{') {
      frames.push({ kind: 'object', keys: [], at: null });
      expect = 'key';
    } else if (ch === '[') {
      frames.push({ kind: 'array', keys: [], at: 0 });
      expect = 'value';
    } else if (ch === '}' || ch === ']') {
      frames.pop();
      valueDone();
    } else if (ch === ':') {
      expect = 'value';
    } else if (ch === ',') {
      if (top?.kind === 'array') {
        top.at = typeof top.at === 'number' ? top.at + 1 : 0;
        expect = 'value';
      } else {
        if (top) top.at = null;
        expect = 'key';
      }
    } else {
      inLiteral = true;
      expect = 'in-value';
    }
  }
  const ctx: JsonPrefixContext = { expect, frames };
  if (str?.key) ctx.partialKey = str.text;
  return ctx;
}
