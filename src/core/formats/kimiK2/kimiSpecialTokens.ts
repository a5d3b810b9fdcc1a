/**
 * The special tokens of the Kimi K2 vocabulary with their real ids. The 256 ids from 163584 to 163839 are all
 * special: the named ones below, the rest spelled `<|reserved_token_N|>` (recognised by pattern, not listed).
 * `<think>`/`</think>` and the media tokens are single tokens in the K2-Thinking/K2.5/K2.6 vocabularies and
 * reserved slots in K2-Instruct: treated as special either way, under both spellings.
 */
import type { SpecialTokens } from '../../tokens/specialTokens.ts';

export const FIRST_SPECIAL_ID = 163584;
export const LAST_SPECIAL_ID = 163839;

export const KIMI_SPECIAL_TOKENS: ReadonlyArray<readonly [text: string, id: number]> = [
  ['[BOS]', 163584],
  ['[EOS]', 163585],
  ['<|im_end|>', 163586],
  ['<|im_user|>', 163587],
  ['<|im_assistant|>', 163588],
  ['<|start_header_id|>', 163590],
  ['<|end_header_id|>', 163591],
  ['[EOT]', 163593],
  ['<|im_system|>', 163594],
  ['<|tool_calls_section_begin|>', 163595],
  ['<|tool_calls_section_end|>', 163596],
  ['<|tool_call_begin|>', 163597],
  ['<|tool_call_argument_begin|>', 163598],
  ['<|tool_call_end|>', 163599],
  ['<|im_middle|>', 163601],
  ['<|media_begin|>', 163602],
  ['<|media_content|>', 163603],
  ['<|media_end|>', 163604],
  ['<|media_pad|>', 163605],
  ['<think>', 163606],
  ['</think>', 163607],
  ['[UNK]', 163838],
  ['[PAD]', 163839],
];

/** Named tokens that are reserved slots in K2-Instruct: their `<|reserved_token_N|>` spelling is valid too. */
export const KIMI_LATER_SPECIAL_TOKENS: readonly string[] = [
  '<|media_begin|>',
  '<|media_content|>',
  '<|media_end|>',
  '<|media_pad|>',
  '<think>',
  '</think>',
];

/**
 * Marker spellings models emit that are NOT single tokens: the singular section markers are not in the
 * vocabulary, so they arrive as several ordinary text tokens.
 */
export const KIMI_NON_TOKEN_MARKERS: readonly string[] = ['<|tool_call_section_begin|>', '<|tool_call_section_end|>'];

const idByText = new Map<string, number>(KIMI_SPECIAL_TOKENS);
const textById = new Map<number, string>(KIMI_SPECIAL_TOKENS.map(([text, id]) => [id, text]));
// Ids whose only spelling is their name (everywhere else `<|reserved_token_N|>` is the vocabulary's string).
const namedOnly = new Set<number>(KIMI_SPECIAL_TOKENS.filter(([text]) => !KIMI_LATER_SPECIAL_TOKENS.includes(text)).map(([, id]) => id));
const RESERVED_PREFIX = '<|reserved_token_';
const RESERVED = /^<\|reserved_token_([1-9]\d{5})\|>$/;

export function isSpecialTokenId(id: number): boolean {
  return Number.isInteger(id) && id >= FIRST_SPECIAL_ID && id <= LAST_SPECIAL_ID;
}

/** The id of a special token's string, or undefined when the string is not one token. */
export function specialTokenId(text: string): number | undefined {
  const named = idByText.get(text);
  if (named !== undefined) return named;
  // Every token of a completion is asked: most are ordinary text, which need not meet the pattern.
  if (!text.startsWith(RESERVED_PREFIX)) return undefined;
  const m = RESERVED.exec(text);
  if (!m) return undefined;
  const id = Number(m[1]);
  return isSpecialTokenId(id) && !namedOnly.has(id) ? id : undefined;
}

export function isSpecialTokenText(text: string): boolean {
  return specialTokenId(text) !== undefined;
}

/** The string of a special id (its name when it has one), or undefined for an ordinary id. */
export function specialTokenText(id: number): string | undefined {
  const named = textById.get(id);
  if (named !== undefined) return named;
  return isSpecialTokenId(id) ? `<|reserved_token_${id}|>` : undefined;
}

/** Longest special token string: bounds the look-ahead when scanning text for specials. */
export const MAX_SPECIAL_LENGTH = Math.max(
  ...KIMI_SPECIAL_TOKENS.map(([text]) => text.length),
  `<|reserved_token_${LAST_SPECIAL_ID}|>`.length,
);

/** The table as Kimi K2's tokenizer capability declares it (`tokenizer.specialTokens`). */
export const kimiSpecialTokenTable: SpecialTokens = { idOf: specialTokenId, textOf: specialTokenText };
