/**
 * Gemma 4 tool calls (Google) as a `ToolCallFormat`: `<|tool_call>call:NAME{key:<|"|>str<|"|>,n:42}<tool_call|>`,
 * reasoning in `<|channel>thought\n…<channel|>` (docs/formats/gemma4.md). The parser is the Gemma call family's
 * (kernel/gemmaCallParser.ts) over the one reader of Gemma's argument notation (kernel/gemmaArguments.ts).
 *
 * No guided decoding: no engine applies a grammar to this format at the commits read — xgrammar's built-in tags
 * (python/xgrammar/builtin_structural_tag.py) have no Gemma style, vLLM's gemma4 parser sets no
 * `structural_tag_model` and skips the JSON grammar for required and named tool choice
 * (vllm/tool_parsers/gemma4_engine_tool_parser.py @ 017e9f4448b700e85ee16023287b025693c72b9e, `adjust_request`).
 * The what-if says so once per record (`noEngineGrammar`), and nothing is invented in its place.
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { GemmaCallParser, type GemmaSyntax } from '../kernel/gemmaCallParser.ts';
import { gemma4CallWriter } from './gemmaCallWriter.ts';
import {
  GEMMA4_CALL_BEGIN,
  GEMMA4_CALL_END,
  GEMMA4_CHANNEL_BEGIN,
  GEMMA4_CHANNEL_END,
  GEMMA4_SCAN_TABLE,
  GEMMA4_TOKEN_MARKERS,
} from './gemmaMarkers.ts';

export const GEMMA4_SYNTAX: GemmaSyntax = {
  table: GEMMA4_SCAN_TABLE,
  callBegin: GEMMA4_CALL_BEGIN,
  callEnd: GEMMA4_CALL_END,
  think: { begin: GEMMA4_CHANNEL_BEGIN, end: GEMMA4_CHANNEL_END, prefix: 'thought\n' },
  argumentStyle: 'gemma4',
  label: 'Gemma4Parser',
};

export const gemma4Format: ToolCallFormat = {
  name: 'gemma4',
  displayName: 'Gemma 4',
  markupSketch: '<|tool_call>call:name{key:<|"|>value<|"|>,n:42}<tool_call|>',
  markers: GEMMA4_TOKEN_MARKERS,
  // Not the string delimiter `<|"|>`: a call stripped of its tokens but keeping it is read whole, with its
  // arguments, by the no-markup scanner (call-colon), not reported as a fragment.
  leakFragments: [GEMMA4_CALL_BEGIN, GEMMA4_CALL_END],
  leakSignature: { openers: [GEMMA4_CALL_BEGIN], closers: [GEMMA4_CALL_END] },
  // Stripped of its tokens, a call reads `call:NAME{…}` (diagnostics/unmarkedCalls.ts).
  unmarkedShape: 'call-colon',
  // No callIds: the model writes no ids; the server invents them.
  // google/gemma-4-31b-it, gemma-4-E4B…; not Gemma 3 (pythonic) nor FunctionGemma.
  models: /gemma[-_ ]?4(?![\d.])/iu,
  // vLLM `gemma4`; SGLang `gemma4`.
  parserNames: ['gemma4'],
  engineNotes: {
    sectionEndsThink:
      "vLLM's gemma4 parser ends the reasoning at <|tool_call> (its (REASONING, TOOL_START) transition) and delivers the call",
  },
  callWriter: gemma4CallWriter,
  noEngineGrammar:
    "no structural tag for Gemma 4 among xgrammar's built-ins or in vLLM's registry, structural_tag_registry.py @ 017e9f44; vLLM's gemma4 parser skips the JSON grammar for required tool choice, SGLang's Gemma4Detector supports none: docs/formats/gemma4.md",
  tokenizer: { approximate: () => new MarkerSplitter(gemma4Format) },
  detect(text: string): boolean {
    return text.includes(GEMMA4_CALL_BEGIN) || text.includes(GEMMA4_CALL_END);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new GemmaCallParser(GEMMA4_SYNTAX, options);
  },
};
