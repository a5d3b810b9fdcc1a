/** Llama 3.x / 4 JSON tool calls as a `ToolCallFormat`: markers, detection, the reference parser and its structural tag. */
import { llamaCallWriter } from './llamaCallWriter.ts';
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { END_OF_TEXT, EOM, EOM_ID, EOT, EOT_ID, LLAMA_MARKERS, PYTHON_START, PYTHON_TAG } from './llamaMarkers.ts';
import { LlamaParser } from './llamaParser.ts';
import { llama3Splitter } from './llama3Pretokenizer.ts';
import { llama3SpecialTokens } from './llama3SpecialTokens.ts';
import { buildLlamaStructuralTag, LLAMA_TAG_SHAPES } from './llamaStructuralTag.ts';

export const llamaFormat: ToolCallFormat = {
  name: 'llama',
  displayName: 'Llama 3.x / 4 JSON',
  markupSketch:
    '<|python_tag|>{"name": …, "parameters": {…}} (calls separated by ;), Llama 4: <|python_start|>{…}<|python_end|>, or the bare object at the start of the answer',
  markers: LLAMA_MARKERS.map((m) => m.text),
  // Only `<|python_tag|>` is tool-call markup (and what a split one leaves behind); the turn ends are not.
  leakFragments: [PYTHON_TAG, '<|python_tag', 'python_tag|>'],
  // The turn's end tokens are no call markup: a call ends with its JSON.
  leakSignature: { openers: [PYTHON_TAG], closers: [] },
  // The call is the bare JSON object itself: in a client's content it is a leaked call.
  nativeBareJson: true,
  // No callIds: the model writes no ids; the server invents them.
  // Meta's Llama 3.1, 3.2, 3.3 and 4 (Scout, Maverick), Ollama's llama3.1 … tags; not fine-tunes with their own
  // call format (Hermes-3-Llama, Nemotron, DeepSeek-R1-Distill-Llama: other formats or none). Registered after Hermes.
  models: /^(?!.*(?:hermes|nemotron|distill|xlam|functionary)).*llama[-_. ]?(?:3[-_.][1-3]|4)(?!\d)/iu,
  // vLLM `llama3_json` / `llama4_json`; SGLang `llama3`.
  parserNames: ['llama3_json', 'llama4_json', 'llama3'],
  // Llama 3 ships tiktoken BPE (original/tokenizer.model) and tokenizer.json; its GGUF builds name it `llama-bpe`.
  callWriter: llamaCallWriter,
  tokenizer: {
    approximate: () => new MarkerSplitter(llamaFormat),
    tiktoken: llama3Splitter,
    gguf: { 'llama-bpe': llama3Splitter },
    specialTokens: llama3SpecialTokens,
  },
  guided: {
    builtinStyle: 'llama',
    shapes: LLAMA_TAG_SHAPES,
    // The turn ends: a record that keeps them ends there for the grammar as for the engine.
    stops: [EOT_ID, EOM_ID, EOT, EOM, END_OF_TEXT],
    // Llama has no reasoning part: the option changes nothing (xgrammar ignores it too).
    structuralTag: (tools, toolChoice) => buildLlamaStructuralTag(tools, toolChoice),
  },
  // `<|python_tag|>`, Llama 4's `<|python_start|>` before a JSON object (before a list it is the pythonic format's), or
  // a turn end only Llama's vocabularies have (a bare call carries no other sign).
  detect(text: string): boolean {
    // Every tag below opens with `<|`: a text without it is answered by one search, not six.
    if (!text.includes('<|')) return false;
    const start = text.indexOf(PYTHON_START);
    if (start >= 0 && /^\s*\{/u.test(text.slice(start + PYTHON_START.length, start + PYTHON_START.length + 64))) return true;
    return [PYTHON_TAG, EOT_ID, EOM_ID, EOT, EOM].some((m) => text.includes(m));
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new LlamaParser(options);
  },
};
