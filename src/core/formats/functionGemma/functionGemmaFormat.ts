/**
 * FunctionGemma tool calls (google/functiongemma-270m-it) as a `ToolCallFormat`:
 * `<start_function_call>call:NAME{key:<escape>value<escape>}<end_function_call>`, no reasoning
 * (docs/formats/gemma4.md). The parser is the Gemma call family's (kernel/gemmaCallParser.ts); the arguments are read as vLLM's functiongemma
 * parser reads them (only `key:<escape>value<escape>` pairs, each value JSON when it parses).
 *
 * No guided decoding: no engine applies a grammar to this format at the commits read (xgrammar has no built-in tag
 * for it; vLLM's functiongemma parser, vllm/tool_parsers/functiongemma_tool_parser.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e, sets no `structural_tag_model`).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { GemmaCallParser, type GemmaSyntax } from '../kernel/gemmaCallParser.ts';
import { functionGemmaCallWriter } from './functionGemmaCallWriter.ts';
import {
  FUNCTION_GEMMA_CALL_BEGIN,
  FUNCTION_GEMMA_CALL_END,
  FUNCTION_GEMMA_SCAN_TABLE,
  FUNCTION_GEMMA_TOKEN_MARKERS,
} from './functionGemmaMarkers.ts';

export const FUNCTION_GEMMA_SYNTAX: GemmaSyntax = {
  table: FUNCTION_GEMMA_SCAN_TABLE,
  callBegin: FUNCTION_GEMMA_CALL_BEGIN,
  callEnd: FUNCTION_GEMMA_CALL_END,
  argumentStyle: 'functiongemma',
  label: 'FunctionGemmaParser',
};

export const functionGemmaFormat: ToolCallFormat = {
  name: 'functiongemma',
  displayName: 'FunctionGemma',
  markupSketch: '<start_function_call>call:name{key:<escape>value<escape>}<end_function_call>',
  markers: FUNCTION_GEMMA_TOKEN_MARKERS,
  leakFragments: [FUNCTION_GEMMA_CALL_BEGIN, FUNCTION_GEMMA_CALL_END],
  leakSignature: { openers: [FUNCTION_GEMMA_CALL_BEGIN], closers: [FUNCTION_GEMMA_CALL_END] },
  unmarkedShape: 'call-colon',
  // No callIds: the model writes no ids; the server invents them.
  models: /function-?gemma/iu,
  // vLLM `functiongemma`.
  parserNames: ['functiongemma'],
  callWriter: functionGemmaCallWriter,
  noEngineGrammar:
    "no structural tag for FunctionGemma among xgrammar's built-ins or in vLLM's registry, structural_tag_registry.py @ 017e9f44, and vLLM's functiongemma parser sets none: docs/formats/gemma4.md",
  tokenizer: { approximate: () => new MarkerSplitter(functionGemmaFormat) },
  detect(text: string): boolean {
    return text.includes(FUNCTION_GEMMA_CALL_BEGIN) || text.includes(FUNCTION_GEMMA_CALL_END);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new GemmaCallParser(FUNCTION_GEMMA_SYNTAX, options);
  },
};
