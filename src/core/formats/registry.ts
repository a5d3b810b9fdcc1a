/**
 * The registry of tool-call formats. Other formats register here and nothing else changes:
 * analysis, CLI and editor look formats up by name or detect them from the text.
 */
import type { ToolCallFormat } from './toolCallFormat.ts';
import { kimiK2Format } from './kimiK2/kimiK2Format.ts';
import { deepseekV31Format } from './deepseekV31/deepseekV31Format.ts';
import { harmonyFormat } from './harmony/harmonyFormat.ts';
import { hermesFormat } from './hermes/hermesFormat.ts';
import { qwen3CoderFormat } from './qwen3Coder/qwen3CoderFormat.ts';
import { KimiSplitter, pretokenize } from '../tokens/index.ts';
import type { Token, Tokenizer } from '../tokens/token.ts';

const formats = new Map<string, ToolCallFormat>();

export function registerFormat(format: ToolCallFormat): void {
  if (formats.has(format.name)) throw new Error(`tool-call format "${format.name}" is already registered`);
  formats.set(format.name, format);
}

export function getFormat(name: string): ToolCallFormat {
  const format = formats.get(name);
  if (!format) throw new Error(`unknown tool-call format "${name}" (known: ${formatNames().join(', ')})`);
  return format;
}

/** The format of that name, or undefined (for names read from data, e.g. a record's `meta.format`). */
export function findFormat(name: unknown): ToolCallFormat | undefined {
  return typeof name === 'string' ? formats.get(name) : undefined;
}

export function formatNames(): string[] {
  return [...formats.keys()];
}

export const DEFAULT_FORMAT = 'kimi_k2';

/**
 * The format whose markup the text carries; the default when none does (plain text parses the same anywhere).
 * When several formats see their markup (one format's tags quoted inside another's arguments), the one whose
 * markup comes first wins; ties go to the format registered first (Qwen3-Coder before Hermes: both use `<tool_call>`).
 */
export function detectFormat(text: string): ToolCallFormat {
  return detectFormatIn(text) ?? getFormat(DEFAULT_FORMAT);
}

/** The format whose markup the text carries (same rules as `detectFormat`), or null when none does. */
export function detectFormatIn(text: string): ToolCallFormat | null {
  let best: ToolCallFormat | null = null;
  let bestAt = Infinity;
  for (const format of formats.values()) {
    if (!format.detect(text)) continue;
    const at = firstFragment(format, text);
    if (best === null || at < bestAt) {
      best = format;
      bestAt = at;
    }
  }
  return best;
}

/** Where the format's own markup first appears (past the end when it was detected by another sign). */
function firstFragment(format: ToolCallFormat, text: string): number {
  let first = text.length + 1;
  for (const f of format.leakFragments) {
    const at = text.indexOf(f);
    if (at >= 0 && at < first) first = at;
  }
  return first;
}

registerFormat(kimiK2Format);
registerFormat(harmonyFormat);
registerFormat(deepseekV31Format);
registerFormat(qwen3CoderFormat);
registerFormat(hermesFormat);

// ---- tokens for completions recorded without them ------------------------------------------------------

/**
 * Splits a completion of one format into approximate tokens: each of the format's markers is one (special)
 * token, as in that model's vocabulary, and the text between splits with the pre-tokenizer. Without it a
 * `<tool_call>` would fall into four pieces and every marker would look split across tokens.
 */
export class MarkerSplitter implements Tokenizer {
  readonly name: string;
  readonly approximate = true;
  private readonly pattern: RegExp | null;

  constructor(format: ToolCallFormat) {
    this.name = `${format.name}-marker-splitter`;
    const markers = [...new Set(format.markers)].filter((m) => m !== '').sort((a, b) => b.length - a.length);
    this.pattern = markers.length ? new RegExp(markers.map((m) => m.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('|'), 'gu') : null;
  }

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    const pushText = (from: number, to: number): void => {
      let at = from;
      for (const piece of to > from ? pretokenize(text.slice(from, to)) : []) {
        tokens.push({ index: tokens.length, text: piece, charStart: at, charEnd: at + piece.length, special: false, approximate: true });
        at += piece.length;
      }
    };
    let last = 0;
    if (this.pattern) {
      this.pattern.lastIndex = 0;
      for (let m = this.pattern.exec(text); m; m = this.pattern.exec(text)) {
        pushText(last, m.index);
        const end = m.index + m[0].length;
        tokens.push({ index: tokens.length, text: m[0], charStart: m.index, charEnd: end, special: true, approximate: false });
        last = end;
      }
    }
    pushText(last, text.length);
    return tokens;
  }
}

const tokenizers = new Map<string, Tokenizer>();

/** The tokenizer that splits completions of `format` recorded without tokens (Kimi: the Kimi splitter with real ids). */
export function tokenizerFor(format: ToolCallFormat): Tokenizer {
  let tokenizer = tokenizers.get(format.name);
  if (!tokenizer) {
    tokenizer = format.name === DEFAULT_FORMAT ? new KimiSplitter() : new MarkerSplitter(format);
    tokenizers.set(format.name, tokenizer);
  }
  return tokenizer;
}
