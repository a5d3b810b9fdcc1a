/**
 * LiquidAI LFM2 / LFM2.5 tool calls as a `ToolCallFormat`: a pythonic list between `<|tool_call_start|>` and
 * `<|tool_call_end|>` (vLLM `lfm2`, llama.cpp's LFM2 chat format), arguments read by the one pythonic reader.
 *
 * No guided what-if: no engine grammar for LFM2 exists at the commits read — not among xgrammar's built-in structural
 * tags, not in vLLM's registry (vllm/tool_parsers/structural_tag_registry.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e); llama.cpp's lazy GBNF for LFM2 is documented, not converted
 * (docs/formats/lfm2.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { lfm2CallWriter } from './lfm2CallWriter.ts';
import { LFM2_MARKERS, TOOL_CALL_END, TOOL_CALL_START } from './lfm2Markers.ts';
import { Lfm2Parser } from './lfm2Parser.ts';

export const lfm2Format: ToolCallFormat = {
  name: 'lfm2',
  displayName: 'LFM2 / LFM2.5',
  markupSketch: '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>',
  markers: LFM2_MARKERS,
  leakFragments: [TOOL_CALL_START, TOOL_CALL_END, '<|tool_call_start', 'tool_call_start|>', '<|tool_call_end', 'tool_call_end|>'],
  leakSignature: { openers: [TOOL_CALL_START], closers: [TOOL_CALL_END] },
  unmarkedShape: 'pythonic',
  // No callIds: the model writes no ids; the server invents them.
  models: /lfm-?2/iu,
  // vLLM `lfm2`.
  parserNames: ['lfm2'],
  engineNotes: {
    callInThink:
      "vLLM's reasoning parser keeps everything before </think> as reasoning; the lfm2 tool parser never sees a call written there",
  },
  callWriter: lfm2CallWriter,
  noEngineGrammar:
    "no structural tag for LFM2 among xgrammar's built-ins or in vLLM's registry, structural_tag_registry.py @ 017e9f44; llama.cpp's lazy GBNF is not converted: docs/formats/lfm2.md",
  // No special-token table: no public copy of LFM2's tokenizer_config.json with its ids was read.
  tokenizer: { approximate: () => new MarkerSplitter(lfm2Format) },
  detect(text: string): boolean {
    return text.includes(TOOL_CALL_START) || text.includes(TOOL_CALL_END);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new Lfm2Parser(options);
  },
};
