/** gpt-oss Harmony messages as a `ToolCallFormat`: markers, detection and the reference parser. */
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { HARMONY_MARKERS } from './harmonyMarkers.ts';
import { HarmonyParser } from './harmonyParser.ts';

export const harmonyFormat: ToolCallFormat = {
  name: 'harmony',
  displayName: 'gpt-oss Harmony',
  markers: HARMONY_MARKERS.map((m) => m.text),
  // The special tokens, and what a server that decodes with skip_special_tokens leaves of a header in content
  // (`assistantfinal…`, `commentary to=functions.f json{…}`).
  leakFragments: [...HARMONY_MARKERS.map((m) => m.text), 'assistantfinal', 'assistantcommentary', 'assistantanalysis', 'to=functions.'],
  models: /gpt-oss/iu,
  // vLLM calls its Harmony parser `openai`, SGLang `gpt-oss`.
  parserNames: ['openai', 'gpt-oss', 'harmony'],
  detect(text: string): boolean {
    return /<\|(?:channel|message|constrain|call)\|>|<\|start\|>assistant/u.test(text);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new HarmonyParser(options);
  },
};
