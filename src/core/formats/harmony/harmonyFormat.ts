/** gpt-oss Harmony messages as a `ToolCallFormat`: markers, detection and the reference parser. */
import { harmonyCallWriter } from './harmonyCallWriter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { CALL, CHANNEL, END, HARMONY_MARKERS, RETURN, START } from './harmonyMarkers.ts';
import { HarmonyParser } from './harmonyParser.ts';
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import { regexSplitter } from '../../tokens/bytePairEncoder.ts';
import { buildHarmonyStructuralTag, HARMONY_TAG_SHAPES } from './harmonyStructuralTag.ts';
import { harmonySpecials, O200K_PATTERN, o200kHarmony } from './o200kHarmony.ts';
import { specialTokenTable } from '../../tokens/specialTokenTable.ts';

export const harmonyFormat: ToolCallFormat = {
  name: 'harmony',
  displayName: 'gpt-oss Harmony',
  markupSketch: '<|channel|>commentary to=functions.name <|constrain|>json<|message|>{json}<|call|>',
  markers: HARMONY_MARKERS.map((m) => m.text),
  // The special tokens, and what a server that decodes with skip_special_tokens leaves of a header in content
  // (`assistantfinal…`, `commentary to=functions.f json{…}`).
  leakFragments: [...HARMONY_MARKERS.map((m) => m.text), 'assistantfinal', 'assistantcommentary', 'assistantanalysis', 'to=functions.'],
  // The header's markers open a message; `<|call|>`, `<|end|>` and `<|return|>` end one.
  leakSignature: { openers: [START, CHANNEL], closers: [CALL, END, RETURN] },
  models: /gpt-oss/iu,
  // vLLM calls its Harmony parser `openai`, SGLang `gpt-oss`.
  parserNames: ['openai', 'gpt-oss', 'harmony'],
  // gpt-oss's tokenizer ships with Toolscope: exact ids offline. llama.cpp names o200k's pre-tokenizer `gpt-4o`.
  callWriter: harmonyCallWriter,
  tokenizer: {
    approximate: () => new MarkerSplitter(harmonyFormat),
    builtin: o200kHarmony,
    gguf: { 'gpt-4o': regexSplitter(O200K_PATTERN) },
    // o200k_harmony's specials, as the built-in tokenizer has them (o200kHarmony.ts).
    specialTokens: specialTokenTable(harmonySpecials),
  },
  // The turn ends at <|call|> or <|return|>, which servers strip; the analysis channel is a message of the tag.
  guided: {
    builtinStyle: 'harmony',
    shapes: HARMONY_TAG_SHAPES,
    structuralTag: buildHarmonyStructuralTag,
    reasoningInTag: true,
    strippedEnds: [RETURN, CALL],
  },
  detect(text: string): boolean {
    // (Every tag opens with `<|`: a text without it is answered by one search, not the expression.)
    return text.includes('<|') && /<\|(?:channel|message|constrain|call)\|>|<\|start\|>assistant/u.test(text);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new HarmonyParser(options);
  },
};
