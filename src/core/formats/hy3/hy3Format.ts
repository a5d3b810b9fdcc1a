/**
 * Tencent Hunyuan Hy3 tool calls as a `ToolCallFormat`: markers (bare and `:opensource`-suffixed), detection, the
 * reference parser (the key/value kernel) and vLLM's own Hy3 structural tag in the record's spelling, which leaves
 * values free text (docs/formats/hy3.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { hy3CallHeader } from './hy3CallHeader.ts';
import { hy3CallWriter } from './hy3CallWriter.ts';
import {
  ARG_KEY_BEGIN,
  ARG_KEY_END,
  ARG_VALUE_BEGIN,
  ARG_VALUE_END,
  HY3_SUFFIX,
  HY3_TAGS,
  HY3_TOKEN_MARKERS,
  suffixed,
  TOOL_CALL_END,
  TOOL_CALLS_BEGIN,
  TOOL_CALLS_END,
  TOOL_SEP,
} from './hy3Markers.ts';
import { Hy3Parser } from './hy3Parser.ts';
import { buildHy3StructuralTag, HY3_TAG_SHAPES, hy3ShapeOf } from './hy3StructuralTag.ts';

const BODY = /^\s*<tool_call(?::opensource)?>[^<]*<tool_sep(?::opensource)?>/u;

export const hy3Format: ToolCallFormat = {
  name: 'hy_v3',
  displayName: 'Hunyuan Hy3',
  markupSketch: '<tool_calls><tool_call>name<tool_sep><arg_key>key</arg_key><arg_value>value</arg_value></tool_call></tool_calls>',
  markers: HY3_TOKEN_MARKERS,
  // The section tags and <tool_sep> are Hy3's alone (bare and suffixed); the bare argument tags it shares with GLM
  // (a bare Hy3 section then holds more of Hy3's markers than of GLM's, which reads `NAME<tool_sep>` as a name).
  leakFragments: [
    TOOL_CALLS_BEGIN,
    TOOL_CALLS_END,
    TOOL_SEP,
    ARG_KEY_BEGIN,
    ARG_KEY_END,
    ARG_VALUE_BEGIN,
    ARG_VALUE_END,
    HY3_TAGS.callsBegin,
    HY3_TAGS.callsEnd,
    HY3_TAGS.sep,
    HY3_TAGS.callBegin,
    HY3_TAGS.callEnd,
    HY3_TAGS.keyBegin,
    HY3_TAGS.valueBegin,
  ],
  leakSignature: {
    openers: [TOOL_CALLS_BEGIN, HY3_TAGS.callsBegin],
    closers: [TOOL_CALLS_END, HY3_TAGS.callsEnd],
    body: BODY,
  },
  // No callIds: the model writes no ids; the server invents them.
  models: /\bhy[-_ ]?3\b|hunyuan[-_ ]?(?:hy)?[-_ ]?3|hy[-_]?v3/iu,
  // vLLM `hy_v3`; SGLang and llama.cpp name Hunyuan's older A13B format otherwise.
  parserNames: ['hy_v3', 'hy3'],
  engineNotes: {
    callInThink:
      "vLLM's hy_v3 reasoning parser keeps everything before </think> as reasoning; the tool parser never sees a call written there",
  },
  callWriter: hy3CallWriter,
  // No special-token table: Toolscope has read no public copy of Hy3's tokenizer_config.json it can name.
  tokenizer: { approximate: () => new MarkerSplitter(hy3Format) },
  guided: {
    tagName: "vLLM's Hy3 structural tag",
    shapes: HY3_TAG_SHAPES,
    shapeOf: hy3ShapeOf,
    freeValues: "vLLM's Hy3 tag leaves every <arg_value> free text",
    callHeader: hy3CallHeader,
    // vLLM's builder has no reasoning part: the option changes nothing.
    structuralTag: (tools, toolChoice, options) => buildHy3StructuralTag(tools, toolChoice, { shape: options?.shape }),
  },
  detect(text: string): boolean {
    // Each tag below holds `<tool_` or `:opensource>`: a text with neither is answered by two searches, not seven.
    if (!text.includes('<tool_') && !text.includes(`${HY3_SUFFIX}>`)) return false;
    return (
      text.includes(TOOL_CALLS_BEGIN) ||
      text.includes(HY3_TAGS.callsBegin) ||
      text.includes(TOOL_SEP) ||
      text.includes(HY3_TAGS.sep) ||
      text.includes(suffixed(ARG_KEY_BEGIN, HY3_SUFFIX)) ||
      text.includes(suffixed(ARG_VALUE_BEGIN, HY3_SUFFIX)) ||
      text.includes(suffixed(TOOL_CALL_END, HY3_SUFFIX))
    );
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new Hy3Parser(options);
  },
};
