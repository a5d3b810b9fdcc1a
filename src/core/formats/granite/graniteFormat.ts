/**
 * IBM Granite's JSON tool calls as a `ToolCallFormat` (docs/formats/granite.md): Granite 3.0's
 * `<|tool_call|>[{"name": …, "arguments": {…}}, …]` and Granite 3.1's `<tool_call>[…]` (vLLM `granite`), and granite-20b-functioncalling's
 * `<function_call> {"name": …, "arguments": {…}}` per call (vLLM `granite-20b-fc`). Both are JSON calls, not pythonic
 * ones: the kernel's JSON-call scanner reads them (graniteParser.ts).
 *
 * No guided what-if: xgrammar's built-in structural tags and vLLM's registry
 * (vllm/tool_parsers/structural_tag_registry.py @ 017e9f4448b700e85ee16023287b025693c72b9e) have no Granite style,
 * and SGLang has no Granite detector in its parser table (function_call_parser.py @ 00828e5).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { graniteCallWriter } from './graniteCallWriter.ts';
import { FUNCTION_CALL, GRANITE_MARKERS, hasGranite31List, TOOL_CALL_STRING, TOOL_CALL_TOKEN } from './graniteMarkers.ts';
import { GraniteParser } from './graniteParser.ts';

export const graniteFormat: ToolCallFormat = {
  name: 'granite',
  displayName: 'Granite JSON (3.0, 3.1, 20B function calling)',
  markupSketch:
    '<|tool_call|>[{"name": …, "arguments": {…}}, …] (Granite 3.1: <tool_call>[…]; granite-20b-functioncalling: <function_call> {…} per call)',
  markers: GRANITE_MARKERS.map((m) => m.text),
  leakFragments: [TOOL_CALL_TOKEN, FUNCTION_CALL, TOOL_CALL_STRING],
  // Granite's body is always JSON: a list, or an object (granite-20b-fc's, or one written without the list).
  leakSignature: { openers: [TOOL_CALL_TOKEN, FUNCTION_CALL, TOOL_CALL_STRING], closers: [], body: /^\s*[[{]/u },
  // No callIds: the model writes no ids; the server invents them.
  // ibm-granite/granite-3.0-… and granite-3.1-… (vLLM docs/features/tool_calling.md @ 017e9f4: `--tool-call-parser
  // granite` for both), granite-20b-functioncalling; not Granite 4 (Hermes' `<tool_call>{…}</tool_call>`, vLLM
  // `granite4`), nor 3.2/3.3, whose parser no engine's docs name.
  models: /granite-3\.[01](?!\d)|granite-20b-function/iu,
  // vLLM `granite`, `granite-20b-fc`.
  parserNames: ['granite', 'granite-20b-fc'],
  noEngineGrammar:
    "no structural tag for Granite among xgrammar's built-ins or in vLLM's registry, structural_tag_registry.py @ 017e9f44, and no SGLang detector: docs/formats/granite.md",
  callWriter: graniteCallWriter,
  tokenizer: { approximate: () => new MarkerSplitter(graniteFormat) },
  detect(text: string): boolean {
    return text.includes(TOOL_CALL_TOKEN) || text.includes(FUNCTION_CALL) || hasGranite31List(text);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new GraniteParser(options);
  },
};
