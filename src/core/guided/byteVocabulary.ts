/**
 * The vocabulary the what-if compiles against: the 256 bytes (so any text can be spelled) plus each named Kimi
 * special token as one token of its own. It is not Kimi's 163k vocabulary: xgrammar matches tokens by their
 * decoded text, so masking this vocabulary decides the same characters, but the ids are ours, never Kimi's.
 */
import { KIMI_SPECIAL_TOKENS } from '../formats/kimiK2/kimiSpecialTokens.ts';
import { IM_END } from '../formats/kimiK2/kimiK2Markers.ts';

export interface ByteVocabulary {
  /** Entries in id order, `<0xNN>` for bytes (xgrammar's byte_fallback spelling). */
  readonly entries: readonly string[];
  /** Special-token text → our id. */
  readonly specialIds: ReadonlyMap<string, number>;
  /** Our id → special-token text. */
  readonly specialTexts: ReadonlyMap<number, string>;
  /** Stop tokens: `<|im_end|>` (Kimi's end of turn) and `[EOS]`; never empty. */
  readonly stopIds: readonly number[];
  readonly size: number;
}

export const BYTE_TOKENS = 256;

function build(): ByteVocabulary {
  const entries: string[] = [];
  for (let b = 0; b < BYTE_TOKENS; b++) entries.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
  const specialIds = new Map<string, number>();
  const specialTexts = new Map<number, string>();
  for (const [text] of KIMI_SPECIAL_TOKENS) {
    specialIds.set(text, entries.length);
    specialTexts.set(entries.length, text);
    entries.push(text);
  }
  const stopIds = [IM_END, '[EOS]'].map((t) => specialIds.get(t)).filter((id): id is number => id !== undefined);
  return { entries, specialIds, specialTexts, stopIds, size: entries.length };
}

export const BYTE_VOCABULARY: ByteVocabulary = build();

/** Texts of the special tokens that are not stop tokens, longest first (for splitting text into them). */
export const SPECIAL_TEXTS_BY_LENGTH: readonly string[] = [...BYTE_VOCABULARY.specialIds.keys()]
  .filter((t) => !BYTE_VOCABULARY.stopIds.includes(BYTE_VOCABULARY.specialIds.get(t) as number))
  .sort((a, b) => b.length - a.length);
