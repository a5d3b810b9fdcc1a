/**
 * Kimi K2's call markup is special tokens of its vocabulary: the grammars are compiled against a vocabulary holding
 * every named special token as one token, `<|im_end|>` (the end of a turn) and `[EOS]` stop, and constrained decoding
 * walks a completion token by token between the section markers.
 */
import type { VocabularyMarkup } from '../toolCallFormat.ts';
import { kimiK2CallHeader } from './kimiK2CallHeader.ts';
import { IM_END, SECTION_BEGIN, SECTION_END } from './kimiK2Markers.ts';
import { KIMI_SPECIAL_TOKENS } from './kimiSpecialTokens.ts';

export const kimiK2VocabularyMarkup: VocabularyMarkup = {
  specialTokens: KIMI_SPECIAL_TOKENS.map(([text]) => text),
  stopTokens: [IM_END, '[EOS]'],
  sectionBegin: SECTION_BEGIN,
  sectionEnd: SECTION_END,
  call: kimiK2CallHeader,
};
