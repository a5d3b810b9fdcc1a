/**
 * The control tokens of Mistral's Tekken vocabulary whose ids a public source states: mistral-common's
 * `Tekkenizer.DEPRECATED_SPECIAL_TOKENS` (src/mistral_common/tokens/tokenizers/tekken.py @
 * aa5223ce90d8b5fd734a1f4eeedea4ebcb72cf57), the ranks 0–19 a Tekken file of tokenizer v3/v7 without its own list gets,
 * with the texts of `SpecialTokens` (tokens/tokenizers/base.py @ 039465db2bdc0486df36365c9bdb428188482a18).
 * Not here: `[ARGS]`, `[CALL_ID]`, `[THINK]`, `[/THINK]` — v11+ tekken.json files list them with their ids, and no
 * such file was read (their ids appear only in mistral-common's test helpers); and SentencePiece vocabularies
 * (Mistral 7B v0.3) have other ids.
 */
import { specialTokenTable } from '../../tokens/specialTokenTable.ts';

/** In rank order from 0. */
const TEKKEN_CONTROL_TOKENS: readonly string[] = [
  '<unk>',
  '<s>',
  '</s>',
  '[INST]',
  '[/INST]',
  '[AVAILABLE_TOOLS]',
  '[/AVAILABLE_TOOLS]',
  '[TOOL_RESULTS]',
  '[/TOOL_RESULTS]',
  '[TOOL_CALLS]',
  '[IMG]',
  '<pad>',
  '[IMG_BREAK]',
  '[IMG_END]',
  '[PREFIX]',
  '[MIDDLE]',
  '[SUFFIX]',
  '[SYSTEM_PROMPT]',
  '[/SYSTEM_PROMPT]',
  '[TOOL_CONTENT]',
];

export const mistralSpecialTokens = specialTokenTable(() => TEKKEN_CONTROL_TOKENS.map((text, rank) => [text, rank] as const));
