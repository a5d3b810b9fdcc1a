/**
 * GLM-4.5/4.6 and GLM-4.7/5.x tool calls (zai-org) as a `ToolCallFormat`: markers, detection, the reference parser
 * (the key/value kernel) and xgrammar's `glm_4_7` structural tag. Both layouts are one format: the same tags, the
 * 4.5 layout with line breaks after the name and between the pairs, the 4.7 layout without (docs/formats/glm.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { glmCallWriter } from './glmCallWriter.ts';
import {
  ARG_KEY_BEGIN,
  ARG_KEY_END,
  ARG_VALUE_BEGIN,
  ARG_VALUE_END,
  GLM_TOKEN_MARKERS,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
} from './glmMarkers.ts';
import { GlmParser } from './glmParser.ts';
import { buildGlmStructuralTag, GLM_TAG_SHAPES, GLM_XML_STYLE } from './glmStructuralTag.ts';

/**
 * GLM's call by its layout, which tells it from the other `<tool_call>` formats (Hermes' JSON, Qwen3-Coder's
 * `<function=`): a name, then an `<arg_key>` (after a line break or not), or `</tool_call>` right after the name.
 */
const GLM_CALL = /<tool_call>[ \t]*[\w.:-]+[ \t]*(?:\r?\n\s*)?(?:<arg_key>|<\/tool_call>)/u;

export const glmFormat: ToolCallFormat = {
  name: 'glm',
  displayName: 'GLM-4.5 / 4.6 / 4.7 / 5',
  markupSketch: '<tool_call>name<arg_key>key</arg_key><arg_value>value</arg_value></tool_call>',
  markers: GLM_TOKEN_MARKERS,
  // The argument tags are GLM's alone; <tool_call> and </tool_call> it shares with Hermes and Qwen3-Coder.
  leakFragments: [ARG_KEY_BEGIN, ARG_KEY_END, ARG_VALUE_BEGIN, ARG_VALUE_END, TOOL_CALL_BEGIN, TOOL_CALL_END],
  // How a leaked GLM call reads after the shared `<tool_call>`: a name, then `<arg_key>` or the closer (GLM_CALL).
  leakSignature: {
    openers: [TOOL_CALL_BEGIN],
    closers: [TOOL_CALL_END],
    body: /^[ \t]*[\w.:-]+[ \t]*(?:\r?\n\s*)?(?:<arg_key>|<\/tool_call>)/u,
  },
  // No callIds: the model writes no ids; the server invents them.
  models: /glm-?(?:4\.[5-9]|[5-9](?:\.\d+)?)(?![\d.])/iu,
  // vLLM `glm45` / `glm47`; SGLang `glm`, `glm45`, `glm47`.
  parserNames: ['glm45', 'glm47', 'glm', 'glm4_moe'],
  engineNotes: {
    callInThink:
      "vLLM's and SGLang's glm45 reasoning parser keeps everything before </think> as reasoning; the tool parser never sees a call written there",
  },
  callWriter: glmCallWriter,
  // No special-token table: Toolscope has read no public copy of GLM's tokenizer_config.json it can name, so
  // recorded tokens of a GLM record are not recognised as special (formats/recordedSpecialTokens.ts).
  tokenizer: { approximate: () => new MarkerSplitter(glmFormat) },
  // xgrammar's glm_4_7 tag; its glm_xml arguments are lowered to EBNF for web-xgrammar (guided/xmlArgumentLowering.ts).
  guided: { builtinStyle: 'glm_4_7', argumentStyle: GLM_XML_STYLE, shapes: GLM_TAG_SHAPES, structuralTag: buildGlmStructuralTag },
  detect(text: string): boolean {
    return GLM_CALL.test(text) || (text.includes(ARG_KEY_BEGIN) && text.includes(ARG_VALUE_BEGIN));
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new GlmParser(options);
  },
};
