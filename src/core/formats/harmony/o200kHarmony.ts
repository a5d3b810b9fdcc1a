/**
 * gpt-oss's tokenizer, o200k_harmony, offline: the o200k_base ranks shipped by `js-tiktoken` plus Harmony's special
 * tokens with the ids openai/harmony gives them (src/tiktoken_ext/public_encodings.rs). The ranks are megabytes:
 * they are read on first use, and the bundles load them from a file of their own (scripts/build.mjs), so the CLI
 * and the extension start without them.
 */
import { BytePairEncoder, regexSplitter, tiktokenModel } from '../../tokens/bytePairEncoder.ts';

export const O200K_HARMONY = 'o200k_harmony';

/** Named specials; every other id from 200013 to 201088 is `<|reserved_N|>`. */
export const HARMONY_SPECIAL_TOKENS: ReadonlyArray<readonly [text: string, id: number]> = [
  ['<|startoftext|>', 199998],
  ['<|endoftext|>', 199999],
  ['<|return|>', 200002],
  ['<|constrain|>', 200003],
  ['<|channel|>', 200005],
  ['<|start|>', 200006],
  ['<|end|>', 200007],
  ['<|message|>', 200008],
  ['<|call|>', 200012],
];
const RESERVED = [200000, 200001, 200004, 200009, 200010, 200011];
const RESERVED_FROM = 200013;
const RESERVED_TO = 201088;

/**
 * o200k's pre-tokenizer. tiktoken compiles it with Rust `regex`, where `\s` is the Unicode White_Space property
 * (U+0085 yes, U+FEFF no: not JavaScript's `\s`) and `(?i:'s)` also matches `'ſ`; both are spelled out here.
 */
const S = String.raw`\p{White_Space}`;
const NOT_S = String.raw`\P{White_Space}`;
const CONTRACTION = String.raw`(?:'[sS\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`;
const UPPER = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const LOWER = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;
export const O200K_PATTERN = [
  String.raw`[^\r\n\p{L}\p{N}]?${UPPER}*${LOWER}+${CONTRACTION}`,
  String.raw`[^\r\n\p{L}\p{N}]?${UPPER}+${LOWER}*${CONTRACTION}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^${S}\p{L}\p{N}]+[\r\n/]*`,
  String.raw`${S}*[\r\n]+`,
  String.raw`${S}+(?!${NOT_S})`,
  String.raw`${S}+`,
].join('|');

let ranks: Map<string, number> | null = null;

/** o200k_base's mergeable ranks (byte strings as Latin-1 keys), read once. */
export function o200kRanks(): Map<string, number> {
  if (ranks) return ranks;
  // A plain require on first use: the bundles map this name to dist/o200k_base.js (scripts/build.mjs).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const data = require('js-tiktoken/ranks/o200k_base') as { bpe_ranks: string };
  const map = new Map<string, number>();
  // js-tiktoken's compact form: each line is `<tag> <first rank> <base64 token> <base64 token>…`, ranks consecutive.
  for (const line of data.bpe_ranks.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const first = Number.parseInt(fields[1] ?? '', 10);
    for (let i = 2; i < fields.length; i++) map.set(Buffer.from(fields[i] as string, 'base64').toString('latin1'), first + i - 2);
  }
  ranks = map;
  return map;
}

export function harmonySpecials(): Map<string, number> {
  const specials = new Map<string, number>(HARMONY_SPECIAL_TOKENS);
  for (const id of RESERVED) specials.set(`<|reserved_${id}|>`, id);
  for (let id = RESERVED_FROM; id <= RESERVED_TO; id++) specials.set(`<|reserved_${id}|>`, id);
  return specials;
}

let tokenizer: BytePairEncoder | null = null;

/** The o200k_harmony tokenizer (built on first call, then shared). */
export function o200kHarmony(): BytePairEncoder {
  tokenizer ??= new BytePairEncoder(O200K_HARMONY, tiktokenModel(o200kRanks()), regexSplitter(O200K_PATTERN), harmonySpecials());
  return tokenizer;
}
