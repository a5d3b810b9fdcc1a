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
import { llamaFormat } from './llama/llamaFormat.ts';
import { glmFormat } from './glm/glmFormat.ts';
import { gemma4Format } from './gemma4/gemma4Format.ts';
import { functionGemmaFormat } from './functionGemma/functionGemmaFormat.ts';
import { mistralFormat } from './mistral/mistralFormat.ts';
import { deepseekDsmlFormat } from './deepseekDsml/dsmlFormat.ts';
import { minimaxFormat } from './minimax/minimaxFormat.ts';
import { minimaxM3Format } from './minimaxM3/minimaxM3Format.ts';
import { hy3Format } from './hy3/hy3Format.ts';
import { pythonicFormat } from './pythonic/pythonicFormat.ts';
import { lfm2Format } from './lfm2/lfm2Format.ts';
import { seedOssFormat } from './seedOss/seedOssFormat.ts';
import { kimiK3Format } from './kimiK3/kimiK3Format.ts';
import { graniteFormat } from './granite/graniteFormat.ts';
import type { Tokenizer } from '../tokens/token.ts';

const formats = new Map<string, ToolCallFormat>();
/** The registered formats in order, kept until the next registration (the checks ask for them on every record). */
let registered: readonly ToolCallFormat[] | null = null;

export function registerFormat(format: ToolCallFormat): void {
  if (formats.has(format.name)) throw new Error(`tool-call format "${format.name}" is already registered`);
  formats.set(format.name, format);
  registered = null;
}

/**
 * Every registered format, in registration order: the same array until another format registers, so what a caller
 * derives from the whole registry can be kept by it (a WeakMap keyed by this array).
 */
export function registeredFormats(): readonly ToolCallFormat[] {
  registered ??= Object.freeze([...formats.values()]);
  return registered;
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
registerFormat(deepseekDsmlFormat);
registerFormat(qwen3CoderFormat);
registerFormat(glmFormat);
// Hy3 before Hermes: Hermes' `<tool_call` piece starts Hy3's `<tool_calls>` too, and ties go to the first registered.
registerFormat(hy3Format);
registerFormat(minimaxFormat);
registerFormat(minimaxM3Format);
registerFormat(seedOssFormat);
registerFormat(kimiK3Format);
registerFormat(hermesFormat);
registerFormat(pythonicFormat);
registerFormat(llamaFormat);
registerFormat(gemma4Format);
registerFormat(functionGemmaFormat);
registerFormat(mistralFormat);
registerFormat(lfm2Format);
registerFormat(graniteFormat);

// ---- tokens for completions recorded without them ------------------------------------------------------

export { MarkerSplitter } from '../tokens/markerSplitter.ts';

const tokenizers = new Map<string, Tokenizer>();

/** The approximate splitter of `format` (Kimi: the Kimi splitter with real special ids), one per format. */
export function tokenizerFor(format: ToolCallFormat): Tokenizer {
  let tokenizer = tokenizers.get(format.name);
  if (!tokenizer) {
    tokenizer = format.tokenizer.approximate();
    tokenizers.set(format.name, tokenizer);
  }
  return tokenizer;
}
