/**
 * DeepSeek's DSML tool calls (DeepSeek-V3.2, V4, V4.1) as a `ToolCallFormat`: markers, detection, the reference parser
 * (the key/value kernel) and xgrammar's `deepseek_v4` / `deepseek_v3_2` structural tags. The three generations are one
 * format: the same invoke and parameter markup in a block named `function_calls` (V3.2) or `tool_calls` (V4), or
 * spelled with spaces (V4.1); the what-if compiles the tag of the block the completion opens (docs/formats/deepseek-dsml.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { deepseekDsmlCallWriter } from './dsmlCallWriter.ts';
import { DSML_MARKERS, DSML_TOOL_TAGS, V32_SPELLING, V41_SPELLING, V4_SPELLING } from './dsmlMarkers.ts';
import { DeepSeekDsmlParser } from './dsmlParser.ts';
import { buildDsmlStructuralTag, DEEPSEEK_XML_STYLE, dsmlShapeOf, DSML_TAG_SHAPES } from './dsmlStructuralTag.ts';

const SPELLINGS = [V32_SPELLING, V4_SPELLING, V41_SPELLING];

export const deepseekDsmlFormat: ToolCallFormat = {
  name: 'deepseek_dsml',
  displayName: 'DeepSeek-V3.2 / V4 / V4.1 (DSML)',
  markupSketch:
    '<｜DSML｜tool_calls><｜DSML｜invoke name="name"><｜DSML｜parameter name="key" string="true">value</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>',
  markers: DSML_MARKERS,
  // The tags, and what a split tag leaves behind (`｜DSML｜` never occurs in prose: U+FF5C around it).
  leakFragments: [...DSML_TOOL_TAGS, '｜DSML｜'],
  leakSignature: {
    openers: SPELLINGS.flatMap((s) => [s.callsBegin, s.invokeBegin]).filter((m, i, all) => all.indexOf(m) === i),
    closers: SPELLINGS.flatMap((s) => [s.callsEnd, s.invokeEnd]).filter((m, i, all) => all.indexOf(m) === i),
  },
  // V3.2 (not V3.2-Exp, which writes V3.1's calls), V4 and its updates (V4.1, V4-Flash…).
  models: /deepseek[-_. ]?v(?:3[-_.]2(?!\d)(?![-_.]?exp)|4(?!\d))/iu,
  // vLLM `deepseek_v32`, `deepseek_v4`; SGLang `deepseekv32`, `deepseekv4`, `deepseekv41`.
  parserNames: ['deepseek_v32', 'deepseek_v4', 'deepseekv32', 'deepseekv4', 'deepseekv41'],
  engineNotes: {
    callInThink:
      "vLLM's deepseek_v4 parser ends the reasoning at a <｜DSML｜tool_calls> written inside it and reads the call; a reasoning parser that ends only at </think> (vLLM's for V3.2, SGLang's) keeps it as reasoning and the client gets no call",
  },
  callWriter: deepseekDsmlCallWriter,
  // No special-token table: no public tokenizer_config.json of V3.2/V4 with the DSML tokens' ids was read, so recorded
  // tokens of a DSML record are not recognised as special (formats/recordedSpecialTokens.ts).
  tokenizer: { approximate: () => new MarkerSplitter(deepseekDsmlFormat) },
  guided: {
    builtinStyle: 'deepseek_v4',
    argumentStyle: DEEPSEEK_XML_STYLE,
    shapes: DSML_TAG_SHAPES,
    shapeOf: dsmlShapeOf,
    structuralTag: buildDsmlStructuralTag,
  },
  detect(text: string): boolean {
    // Every tag holds `DSML`: a text without it (nearly every text) is answered by one search, not fourteen.
    return text.includes('DSML') && DSML_TOOL_TAGS.some((m) => text.includes(m));
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new DeepSeekDsmlParser(options);
  },
};
