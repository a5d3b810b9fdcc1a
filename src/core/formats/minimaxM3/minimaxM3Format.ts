/**
 * MiniMax-M3 tool calls (MiniMaxAI) as a `ToolCallFormat`: every tag prefixed by the namespace token `]<]minimax[>[`,
 * parameters as tags named after the key, objects and arrays as child tags, reasoning in `<mm:think>`. Its own format
 * beside MiniMax-M2 (src/core/formats/minimax/) because the engines register it apart: vLLM's `minimax_m3` tool and
 * reasoning parsers, SGLang's and llama.cpp's own M3 parsers (docs/formats/minimax.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { minimaxM3CallWriter } from './minimaxM3CallWriter.ts';
import { BARE, INVOKE_BEGIN, NAMESPACE, THINK_BEGIN, THINK_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxM3Markers.ts';
import { MinimaxM3Parser } from './minimaxM3Parser.ts';
import { buildMinimaxM3StructuralTag, MINIMAX_M3_TAG_SHAPES, MINIMAX_M3_XML_STYLE, minimaxM3ShapeOf } from './minimaxM3StructuralTag.ts';

/** M3's block with the namespace token skipped: `<tool_call>` then an invoke (Hermes writes JSON there, Qwen3-Coder `<function=`). */
const BARE_BLOCK = /<tool_call>\s*<invoke name=/u;

export const minimaxM3Format: ToolCallFormat = {
  name: 'minimax_m3',
  displayName: 'MiniMax-M3',
  markupSketch: ']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="name">]<]minimax[>[<key>value]<]minimax[>[</key>…',
  // The namespace token is one token of the vocabulary (id 200058, llama.cpp PR 24523's review); the think tags are
  // complete vocabulary entries (vLLM minimax_m3_reasoning_parser.py).
  markers: [NAMESPACE, THINK_BEGIN, THINK_END],
  // The bare block tags are shared with Hermes, Qwen3-Coder and GLM (the body tells them apart, below).
  leakFragments: [NAMESPACE, TOOL_CALL_BEGIN, TOOL_CALL_END, BARE.toolCallBegin, BARE.toolCallEnd],
  // The bare block (the namespace token skipped, or M3 under an M2-style template) is M3's too: `<tool_call>` is
  // shared with Hermes, Qwen3-Coder and GLM, so its body tells (an invoke, optionally namespaced).
  leakSignature: {
    openers: [TOOL_CALL_BEGIN, BARE.toolCallBegin],
    closers: [TOOL_CALL_END, BARE.toolCallEnd],
    body: /^\s*(?:\]<\]minimax\[>\[)?<invoke name=/u,
  },
  // No callIds: the model writes no ids; the server invents them.
  models: /minimax[-_ ]?m3(?![\d])/iu,
  // vLLM `minimax_m3` (tool and reasoning parser); SGLang and llama.cpp name it `minimax-m3`.
  parserNames: ['minimax_m3', 'minimax-m3'],
  engineNotes: {
    callInThink:
      "vLLM's minimax_m3 reasoning parser keeps everything before </mm:think> as reasoning; the tool parser never sees a call written there",
  },
  callWriter: minimaxM3CallWriter,
  // xgrammar's minimax_m3 tag (minimaxM3StructuralTag.ts), its minimax_m3_xml arguments lowered for web-xgrammar 0.1.27.
  guided: {
    builtinStyle: 'minimax_m3',
    argumentStyle: MINIMAX_M3_XML_STYLE,
    shapes: MINIMAX_M3_TAG_SHAPES,
    shapeOf: minimaxM3ShapeOf,
    // The reasoning prefix is the tag's own in the thinking shape: the completion is fed from its start.
    reasoningInTag: true,
    structuralTag: buildMinimaxM3StructuralTag,
  },
  // No special-token table: Toolscope has read no public copy of MiniMax-M3's tokenizer_config.json it can name.
  tokenizer: { approximate: () => new MarkerSplitter(minimaxM3Format) },
  detect(text: string): boolean {
    return (
      text.includes(TOOL_CALL_BEGIN) ||
      text.includes(INVOKE_BEGIN) ||
      text.includes(THINK_BEGIN) ||
      text.includes(THINK_END) ||
      BARE_BLOCK.test(text)
    );
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new MinimaxM3Parser(options);
  },
};
