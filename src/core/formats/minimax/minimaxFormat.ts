/**
 * MiniMax-M2 / M2.1 / M2.5 / M2.7 tool calls (MiniMaxAI) as a `ToolCallFormat`: markers, detection, the reference
 * parser (the key/value kernel) and vLLM's `minimax` structural tag. MiniMax-M3's namespaced markup
 * (`]<]minimax[>[<tool_call>`, parameters as tags named after the key) is another format, `minimax_m3`
 * (src/core/formats/minimaxM3/, docs/formats/minimax.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { minimaxCallWriter } from './minimaxCallWriter.ts';
import { MINIMAX_TOKEN_MARKERS, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxMarkers.ts';
import { MinimaxParser } from './minimaxParser.ts';
import { buildMinimaxStructuralTag, MINIMAX_TAG_SHAPES, MINIMAX_XML_STYLE } from './minimaxStructuralTag.ts';

export const minimaxFormat: ToolCallFormat = {
  name: 'minimax_m2',
  displayName: 'MiniMax-M2',
  markupSketch: '<minimax:tool_call><invoke name="name"><parameter name="key">value</parameter></invoke></minimax:tool_call>',
  markers: MINIMAX_TOKEN_MARKERS,
  // The block tags are MiniMax's alone. Not `<invoke name=` nor `<parameter name=`: Claude's older XML writes them too
  // (an invoke outside a block is the `invoke-xml` shape of calls without markup, nobody's).
  leakFragments: [TOOL_CALL_BEGIN, TOOL_CALL_END, '<minimax:tool_call', 'minimax:tool_call>'],
  // Not `<tool_call>`: MiniMax-M3 with its namespace token stripped writes invokes in one; that span is M3's
  // (`minimax_m3`), never Hermes'.
  leakSignature: { openers: [TOOL_CALL_BEGIN], closers: [TOOL_CALL_END] },
  // No unmarkedShape: its invokes without the block are also Anthropic's older XML (the `invoke-xml` shape stays
  // nobody's).
  // No callIds: the model writes no ids; the server invents them.
  models: /minimax[-_ ]?m2(?:\.\d+)?(?![\d])/iu,
  // vLLM `minimax_m2`; SGLang `minimax-m2`. (vLLM's `minimax` is MiniMax-M1's JSON lines in `<tool_calls>`.)
  parserNames: ['minimax_m2', 'minimax-m2'],
  engineNotes: {
    callInThink:
      "vLLM's minimax_m2 parser (017e9f4) ends the reasoning at <minimax:tool_call> and reads the call there; a reasoning parser that keeps everything before </think> as reasoning never shows it to the client",
  },
  callWriter: minimaxCallWriter,
  // No special-token table: Toolscope has read no public copy of MiniMax-M2's tokenizer_config.json it can name.
  tokenizer: { approximate: () => new MarkerSplitter(minimaxFormat) },
  guided: {
    builtinStyle: 'minimax',
    argumentStyle: MINIMAX_XML_STYLE,
    shapes: MINIMAX_TAG_SHAPES,
    structuralTag: buildMinimaxStructuralTag,
  },
  detect(text: string): boolean {
    return text.includes(TOOL_CALL_BEGIN) || text.includes(TOOL_CALL_END);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new MinimaxParser(options);
  },
};
