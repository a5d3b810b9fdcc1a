/** Qwen3-Coder tool calls as a `ToolCallFormat`: markers, detection, the reference parser and the structural tag. */
import { qwen3CoderCallWriter } from './qwen3CoderCallWriter.ts';
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import { qwen2Splitter } from '../../tokens/qwenPretokenizer.ts';
import { qwenSpecialTokens } from '../../tokens/qwenSpecialTokens.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { FUNCTION_BEGIN, PARAMETER_BEGIN, QWEN3_CODER_TOKEN_MARKERS, TOOL_CALL_BEGIN, TOOL_CALL_END } from './qwen3CoderMarkers.ts';
import { Qwen3CoderParser } from './qwen3CoderParser.ts';
import { buildQwen3CoderStructuralTag, QWEN3_CODER_TAG_SHAPES, QWEN_XML_STYLE } from './qwen3CoderStructuralTag.ts';

export const qwen3CoderFormat: ToolCallFormat = {
  name: 'qwen3_coder',
  displayName: 'Qwen3-Coder',
  markupSketch: '<tool_call><function=name><parameter=key>value</parameter></function></tool_call>',
  // The special tokens; the <function=…>/<parameter=…> tags are text tokens, recognised by the parser.
  markers: QWEN3_CODER_TOKEN_MARKERS,
  // The opening tags only: closing tags like </function> also occur in ordinary code and prose.
  leakFragments: [TOOL_CALL_BEGIN, TOOL_CALL_END, FUNCTION_BEGIN, PARAMETER_BEGIN, '<tool_call', 'tool_call>'],
  // Hermes and MiniMax M3 write `<tool_call>` too: a Qwen3-Coder call's body is a function tag.
  leakSignature: { openers: [TOOL_CALL_BEGIN], closers: [TOOL_CALL_END], body: /^\s*<function=/u },
  // Qwen3-Coder, and the Qwen3.5 family, which writes the same XML calls.
  models: /qwen3(?:\.\d+)?[-_. ]?coder|qwen3\.[5-9]/iu,
  parserNames: ['qwen3_coder', 'qwen3_xml'],
  // Qwen models ship tokenizer.json; their GGUF builds name the pre-tokenizer `qwen2`.
  callWriter: qwen3CoderCallWriter,
  tokenizer: {
    approximate: () => new MarkerSplitter(qwen3CoderFormat),
    gguf: { qwen2: qwen2Splitter },
    specialTokens: qwenSpecialTokens,
  },
  // xgrammar's qwen_3_coder tag; its qwen_xml arguments are lowered to EBNF for web-xgrammar (guided/xmlArgumentLowering.ts).
  guided: {
    builtinStyle: 'qwen_3_coder',
    argumentStyle: QWEN_XML_STYLE,
    shapes: QWEN3_CODER_TAG_SHAPES,
    structuralTag: buildQwen3CoderStructuralTag,
  },
  detect(text: string): boolean {
    // `<tool_call>` then `<function=`; or, without the wrapper, a function tag followed by a parameter or its end.
    // Both hold `<function=`: a text without it is answered by one search.
    if (!text.includes('<function=')) return false;
    return (
      /<tool_call>\s*<function=/u.test(text) ||
      (!text.includes(TOOL_CALL_BEGIN) && /<function=[^>\n]*>\s*(?:<parameter=|<\/function>)/u.test(text))
    );
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new Qwen3CoderParser(options);
  },
};
