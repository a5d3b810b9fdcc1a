/**
 * The special tokens a record's recorded tokens are recognised by (tokens/recordedTokens.ts): those of the
 * vocabulary of the format the analysis resolved for the record, and no other. One vocabulary's special id is an
 * ordinary token of another (Kimi K2's 163584–163839 are o200k text), and a text such as `<think>` has a
 * different id in each. A format that declares no table recognises no recorded token as special, by id or by
 * text: without its vocabulary there is no telling whether a recorded text is one special token or ordinary text
 * that reads like one (the parsers find markup in the text either way).
 */
import type { SpecialTokens } from '../tokens/specialTokens.ts';
import { NO_SPECIAL_TOKENS } from '../tokens/specialTokenTable.ts';
import type { ToolCallFormat } from './toolCallFormat.ts';

export function recordedSpecialTokens(format: ToolCallFormat): SpecialTokens {
  return format.tokenizer.specialTokens ?? NO_SPECIAL_TOKENS;
}
