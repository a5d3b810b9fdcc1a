/** DeepSeek-V3.1 tool calls as a `ToolCallFormat`: markers, detection and the reference parser. */
import { deepseekV31CallWriter } from './deepseekV31CallWriter.ts';
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import { deepseekV3Splitter } from './deepseekPretokenizer.ts';
import { deepseekSpecialTokens } from './deepseekSpecialTokens.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import {
  CALL_BEGIN,
  CALL_END,
  CALLS_BEGIN,
  CALLS_END,
  DEEPSEEK_TOOL_MARKER_TEXTS,
  DEEPSEEK_V31_MARKERS,
  END_OF_SENTENCE,
} from './deepseekV31Markers.ts';
import { DeepSeekV31Parser } from './deepseekV31Parser.ts';
import { buildDeepseekV31StructuralTag, DEEPSEEK_V31_TAG_SHAPES } from './deepseekV31StructuralTag.ts';

export const deepseekV31Format: ToolCallFormat = {
  name: 'deepseek_v31',
  displayName: 'DeepSeek-V3.1',
  markupSketch: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>name<｜tool▁sep｜>{json}<｜tool▁call▁end｜>',
  markers: DEEPSEEK_V31_MARKERS.map((m) => m.text),
  // The tool markers, and the pieces a split marker leaves behind (U+2581 and U+FF5C never occur in prose).
  leakFragments: [...DEEPSEEK_TOOL_MARKER_TEXTS, '<｜tool▁', 'tool▁call', '▁sep｜>'],
  leakSignature: { openers: [CALLS_BEGIN, CALL_BEGIN], closers: [CALLS_END, CALL_END] },
  // V3.1 and its updates (V3.1-Terminus); not V3/R1 (another call format) nor V3.2 (DSML).
  models: /deepseek[-_. ]?v3[-_.]1(?!\d)/iu,
  parserNames: ['deepseek_v31', 'deepseekv31'],
  // DeepSeek ships tokenizer.json; its GGUF builds name the pre-tokenizer `deepseek-v3`.
  callWriter: deepseekV31CallWriter,
  tokenizer: {
    approximate: () => new MarkerSplitter(deepseekV31Format),
    gguf: { 'deepseek-v3': deepseekV3Splitter },
    specialTokens: deepseekSpecialTokens,
  },
  guided: { builtinStyle: 'deepseek_v3_1', shapes: DEEPSEEK_V31_TAG_SHAPES, structuralTag: buildDeepseekV31StructuralTag },
  detect(text: string): boolean {
    return DEEPSEEK_TOOL_MARKER_TEXTS.some((m) => text.includes(m)) || text.includes(END_OF_SENTENCE);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new DeepSeekV31Parser(options);
  },
};
