/**
 * Guided decoding: a format's structural tag (`ToolCallFormat.guided`) compiled with web-xgrammar, and the what-if.
 * The tags themselves are the formats' own (src/core/formats/<name>/).
 */
export type {
  StructuralTag,
  StructuralTagFormat,
  TagFormat,
  TriggeredTagsFormat,
  TagsWithSeparatorFormat,
  JsonSchemaFormat,
} from '../formats/structuralTag/structuralTagFormat.ts';
export { StructuralTagError } from '../formats/structuralTag/toolChoice.ts';
export { compileFormatGrammar, compileStructuralTag, grammarAccepts, structuralTagToEbnf, type CompiledGrammar } from './xgrammar.ts';
export {
  whatIf,
  whatIfForRequest,
  type WhatIfCompletion,
  type WhatIfForRequest,
  type WhatIfOptions,
  type WhatIfRequestOptions,
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
