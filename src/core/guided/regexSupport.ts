/**
 * Regex features xgrammar's regex converter refuses. In web-xgrammar they abort the WASM module (printing
 * `[FATAL]`), so Toolscope checks patterns first and explains instead. The engine would reject such a request.
 */
import type { JsonValue } from '../trace/record.ts';
import { walkFormats, type StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';

export class UnsupportedRegexError extends Error {
  constructor(
    readonly feature: string,
    readonly pattern: string,
  ) {
    super(`xgrammar does not support ${feature} in the regex ${JSON.stringify(pattern)}: the engine would reject the request`);
    this.name = 'UnsupportedRegexError';
  }
}

/** The first unsupported feature of a pattern, or undefined (measured against web-xgrammar 0.1.27). */
export function unsupportedRegexFeature(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const n = pattern[i + 1] ?? '';
    if (c === '\\') {
      if (!inClass) {
        if (n === 'b' || n === 'B') return 'word boundaries (\\b)';
        if (/[1-9]/.test(n) || n === 'k') return 'backreferences';
      }
      if (n === 'p' || n === 'P') return 'Unicode property escapes (\\p{…})';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (n === ']') i++;
    } else if (c === '(' && n === '?') {
      const rest = pattern.slice(i + 2);
      if (rest.startsWith('=') || rest.startsWith('!')) return 'lookahead';
      if (rest.startsWith('<=') || rest.startsWith('<!')) return 'lookbehind';
      if (/^[imsxu-]+[:)]/.test(rest)) return 'group modifier flags ((?i)…)';
    }
  }
  return undefined;
}

function* schemaPatterns(schema: JsonValue | boolean): Generator<string> {
  if (Array.isArray(schema)) {
    for (const s of schema) yield* schemaPatterns(s);
  } else if (schema !== null && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      // `pattern` as a keyword, not as a property called "pattern" inside `properties`.
      if (k === 'pattern' && typeof v === 'string') yield v;
      else if (k === 'properties' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const sub of Object.values(v)) yield* schemaPatterns(sub);
      } else yield* schemaPatterns(v);
    }
  }
}

/** Throws UnsupportedRegexError for the first regex in the tag (regex formats, schema patterns) xgrammar refuses. */
export function assertRegexesSupported(tag: StructuralTag): void {
  for (const f of walkFormats(tag.format)) {
    const patterns = f.type === 'regex' ? [f.pattern] : f.type === 'json_schema' ? [...schemaPatterns(f.json_schema)] : [];
    for (const p of patterns) {
      const feature = unsupportedRegexFeature(p);
      if (feature) throw new UnsupportedRegexError(feature, p);
    }
  }
}
