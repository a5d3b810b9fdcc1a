/**
 * Kimi K3 (Moonshot) tool calls as a `ToolCallFormat`: markers, detection, the reference parser (the key/value kernel
 * with K3's attributed tags) and the call writer (docs/formats/kimi-k3.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { kimiK3CallHeader } from './kimiK3CallHeader.ts';
import { kimiK3CallWriter } from './kimiK3CallWriter.ts';
import {
  ARGUMENT_CLOSE,
  ARGUMENT_OPEN,
  CALL_CLOSE,
  CALL_OPEN,
  END_OF_MSG,
  JSON_CLOSE,
  JSON_OPEN,
  KIMI_K3_TOKENS,
  MESSAGE_CLOSE,
  TOOLS_CLOSE,
  TOOLS_OPEN,
} from './kimiK3Markers.ts';
import { buildKimiK3StructuralTag, KIMI_K3_TAG_SHAPES, kimiK3ShapeOf } from './kimiK3StructuralTag.ts';
import { KimiK3Parser } from './kimiK3Parser.ts';

/** K3's channels and call tags: a dedicated token, then the tag's name (the tokens themselves are K3's alone). */
const K3_MARKUP =
  /<\|open\|>(?:tools|think|response|call|argument|json)\b|<\|close\|>(?:tools|think|response|call|argument|json|message)<\|sep\|>/u;

export const kimiK3Format: ToolCallFormat = {
  name: 'kimi_k3',
  displayName: 'Kimi K3',
  markupSketch:
    '<|open|>tools<|sep|><|open|>call tool="name" index="1"<|sep|><|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>',
  markers: KIMI_K3_TOKENS,
  leakFragments: [TOOLS_OPEN, TOOLS_CLOSE, CALL_OPEN, CALL_CLOSE, ARGUMENT_OPEN, ARGUMENT_CLOSE, JSON_OPEN, JSON_CLOSE],
  leakSignature: { openers: [TOOLS_OPEN, CALL_OPEN], closers: [TOOLS_CLOSE, CALL_CLOSE] },
  models: /kimi[-_ ]?k3/iu,
  // vLLM `kimi_k3`.
  parserNames: ['kimi_k3'],
  engineNotes: {
    callInThink:
      "vLLM's kimi_k3 parser keeps everything before <|close|>think<|sep|> as reasoning; a tools channel written there never reaches the client",
  },
  callWriter: kimiK3CallWriter,
  // No special-token table: Toolscope has read no public copy of Kimi K3's tokenizer_config.json it can name (vLLM's
  // tests use made-up ids), so recorded tokens of a K3 record are not recognised as special.
  tokenizer: { approximate: () => new MarkerSplitter(kimiK3Format) },
  // vLLM's kimi_k3 tag with per-argument tags (kimiK3StructuralTag.ts): web-xgrammar 0.1.27 has no kimi_k3_xml style.
  guided: {
    builtinStyle: 'kimi_k3',
    shapes: KIMI_K3_TAG_SHAPES,
    shapeOf: kimiK3ShapeOf,
    // The think channel is the tag's own prefix in the thinking shape (not a `</think>` block skipped first): the
    // completion is fed from its start.
    reasoningInTag: true,
    stops: [MESSAGE_CLOSE, END_OF_MSG],
    callHeader: kimiK3CallHeader,
    structuralTag: buildKimiK3StructuralTag,
  },
  detect(text: string): boolean {
    return K3_MARKUP.test(text);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new KimiK3Parser(options);
  },
};
