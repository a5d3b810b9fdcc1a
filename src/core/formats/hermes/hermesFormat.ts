/** Hermes-style tool calls (Hermes 2 Pro, Qwen2.5, Qwen3) as a `ToolCallFormat`: markers, detection and the reference parser. */
import { hermesCallWriter } from './hermesCallWriter.ts';
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import { qwen2Splitter } from '../../tokens/qwenPretokenizer.ts';
import { qwenSpecialTokens } from '../../tokens/qwenSpecialTokens.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { HERMES_MARKERS, TOOL_CALL_BEGIN, TOOL_CALL_END } from './hermesMarkers.ts';
import { HermesParser } from './hermesParser.ts';
import { buildHermesStructuralTag, HERMES_TAG_SHAPES } from './hermesStructuralTag.ts';

/** `<tool_call>` before a list, in a text with no `</tool_call>` (the `detect` below). */
const UNCLOSED_LIST = /<tool_call>\s*\[/gu;

export const hermesFormat: ToolCallFormat = {
  name: 'hermes',
  displayName: 'Hermes / Qwen2.5 / Qwen3',
  markupSketch: '<tool_call>{"name": …, "arguments": {…}}</tool_call>',
  markers: HERMES_MARKERS.map((m) => m.text),
  // Whole tags first (they name the leak best), then what a tag split across deltas leaves behind.
  leakFragments: [TOOL_CALL_BEGIN, TOOL_CALL_END, '<tool_call', 'tool_call>'],
  // Qwen3-Coder and MiniMax M3 write `<tool_call>` too: a Hermes call's body is JSON.
  leakSignature: { openers: [TOOL_CALL_BEGIN], closers: [TOOL_CALL_END], body: /^\s*[{[]/u },
  // No callIds: the model writes no ids; the server invents them.
  // Hermes 2 Pro / 3, QwQ, Qwen2 and 2.5 (Coder too), Qwen3 and Qwen3-Next; not Qwen3-Coder nor Qwen3.5. Granite 4
  // writes Hermes' calls (vLLM docs/features/tool_calling.md @ 017e9f4: granite-4.0 models, `granite4`).
  models: /hermes|qwq|qwen2|qwen3(?![-_. ]?coder|\.\d)|granite-4\./iu,
  // vLLM `hermes`, and `granite4` (granite4_tool_parser.py @ 017e9f4: `<tool_call>{json}</tool_call>`, text between
  // calls kept); SGLang `hermes`, `qwen25` / `qwen`.
  parserNames: ['hermes', 'qwen25', 'qwen', 'granite4'],
  // Qwen models ship tokenizer.json; their GGUF builds name the pre-tokenizer `qwen2`.
  callWriter: hermesCallWriter,
  tokenizer: {
    approximate: () => new MarkerSplitter(hermesFormat),
    gguf: { qwen2: qwen2Splitter },
    // Qwen's vocabulary: Hermes models on other bases (Hermes 2 Pro on Mistral or Llama 3) have other ids.
    specialTokens: qwenSpecialTokens,
  },
  guided: { builtinStyle: 'qwen_3', shapes: HERMES_TAG_SHAPES, structuralTag: buildHermesStructuralTag },
  detect(text: string): boolean {
    // A `<tool_call>` that opens a JSON list never closed is not Hermes' (each Hermes call is an object closed by
    // `</tool_call>`; vLLM's hermes reads no call from a list): Granite 3.1 writes it (docs/formats/granite.md).
    return text.includes(TOOL_CALL_END) || text.replace(UNCLOSED_LIST, '').includes(TOOL_CALL_BEGIN);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new HermesParser(options);
  },
};
