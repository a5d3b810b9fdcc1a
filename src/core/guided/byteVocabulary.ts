/**
 * The vocabulary the what-if compiles against: the 256 bytes (so any text can be spelled) plus the special tokens
 * of the formats whose call markup is made of them (`guided.markupInVocabulary`: Kimi K2's), each one token of its
 * own. It is no model's vocabulary: xgrammar matches tokens by their decoded text, so masking this vocabulary
 * decides the same characters, but the ids are ours, never the model's. One vocabulary serves every format's
 * grammar (one compiler, one set of special pieces a completion is cut into), as it always has.
 */
import { formatNames, getFormat } from '../formats/registry.ts';

export interface ByteVocabulary {
  /** Entries in id order, `<0xNN>` for bytes (xgrammar's byte_fallback spelling). */
  readonly entries: readonly string[];
  /** Special-token text → our id. */
  readonly specialIds: ReadonlyMap<string, number>;
  /** Our id → special-token text. */
  readonly specialTexts: ReadonlyMap<number, string>;
  /** Stop tokens: the formats' end-of-turn tokens (`<|im_end|>`, `[EOS]`); never empty. */
  readonly stopIds: readonly number[];
  readonly size: number;
}

export const BYTE_TOKENS = 256;

/** The stop token of a vocabulary no format gives one: an output must be able to end. */
const FALLBACK_STOP = '[EOS]';

function build(): ByteVocabulary {
  const entries: string[] = [];
  for (let b = 0; b < BYTE_TOKENS; b++) entries.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
  const specialIds = new Map<string, number>();
  const specialTexts = new Map<number, string>();
  const add = (text: string) => {
    if (specialIds.has(text)) return;
    specialIds.set(text, entries.length);
    specialTexts.set(entries.length, text);
    entries.push(text);
  };
  const markups = formatNames().flatMap((name) => getFormat(name).guided?.markupInVocabulary ?? []);
  for (const markup of markups) for (const text of markup.specialTokens) add(text);
  let stops = [...new Set(markups.flatMap((m) => m.stopTokens))].filter((t) => specialIds.has(t));
  if (stops.length === 0) {
    add(FALLBACK_STOP);
    stops = [FALLBACK_STOP];
  }
  const stopIds = stops.map((t) => specialIds.get(t) as number);
  return { entries, specialIds, specialTexts, stopIds, size: entries.length };
}

export const BYTE_VOCABULARY: ByteVocabulary = build();

/** Texts of the special tokens that are not stop tokens, longest first (for splitting text into them). */
export const SPECIAL_TEXTS_BY_LENGTH: readonly string[] = [...BYTE_VOCABULARY.specialIds.keys()]
  .filter((t) => !BYTE_VOCABULARY.stopIds.includes(BYTE_VOCABULARY.specialIds.get(t) as number))
  .sort((a, b) => b.length - a.length);

/** Texts of the stop tokens, in order: where a model ended its turn. */
export const STOP_TEXTS: readonly string[] = BYTE_VOCABULARY.stopIds.map((id) => BYTE_VOCABULARY.specialTexts.get(id) as string);
