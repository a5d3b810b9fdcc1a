/** Guided decoding: the Kimi structural tag (replay, what-if), its compilation with web-xgrammar, the what-if. */
export type {
  StructuralTag,
  StructuralTagFormat,
  TagFormat,
  TriggeredTagsFormat,
  TagsWithSeparatorFormat,
  JsonSchemaFormat,
} from '../formats/structuralTag/structuralTagFormat.ts';
export {
  buildKimiStructuralTag,
  structuralTagBuilder,
  STRUCTURAL_TAG_SHAPES,
  toolTagBegin,
  type StructuralTagOptions,
  type StructuralTagShape,
} from '../formats/kimiK2/kimiK2StructuralTag.ts';
export { StructuralTagError } from '../formats/structuralTag/toolChoice.ts';
export {
  compileKimiGrammar,
  compileStructuralTag,
  grammarAccepts,
  guidedCacheKey,
  structuralTagToEbnf,
  type CompiledKimiGrammar,
} from './xgrammar.ts';
export {
  whatIf,
  whatIfForRequest,
  type WhatIfCompletion,
  type WhatIfForRequest,
  type WhatIfOptions,
  type WhatIfResult,
  type WhatIfAccepted,
  type WhatIfRejected,
} from './whatIf.ts';
export type { AllowedNext } from './allowedNext.ts';
export {
  SCHEMA_KEYWORD_GAPS,
  UNENFORCED_KEYWORDS,
  schemaKeywordGaps,
  type KeywordGapEffect,
  type SchemaKeywordGap,
} from './unenforcedKeywords.ts';
export { UnsupportedRegexError } from './regexSupport.ts';
export { XgrammarError } from './xgrammarModule.ts';
