/**
 * Seed-OSS tool calls (ByteDance-Seed) as a `ToolCallFormat`: markers, detection, the reference parser (the key/value
 * kernel configured as for Qwen3-Coder) and the call writer. No engine constrains Seed-OSS with a structural tag (vLLM's
 * seed_oss tool parser sets `structural_tag_model = None`; xgrammar has no Seed-OSS model), so the format declares no
 * grammar and the what-if says why once (docs/formats/seed-oss.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { seedOssCallWriter } from './seedOssCallWriter.ts';
import {
  FUNCTION_BEGIN,
  PARAMETER_BEGIN,
  SEED_OSS_TOKEN_MARKERS,
  THINK_BEGIN,
  THINK_END,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
} from './seedOssMarkers.ts';
import { SeedOssParser } from './seedOssParser.ts';

export const seedOssFormat: ToolCallFormat = {
  name: 'seed_oss',
  displayName: 'Seed-OSS',
  markupSketch: '<seed:tool_call><function=name><parameter=key>value</parameter></function></seed:tool_call>',
  markers: SEED_OSS_TOKEN_MARKERS,
  // The wrapper is Seed's alone; the function and parameter tags inside it Seed shares with Qwen3-Coder.
  leakFragments: [TOOL_CALL_BEGIN, TOOL_CALL_END, '<seed:tool_call', 'seed:tool_call>', FUNCTION_BEGIN, PARAMETER_BEGIN],
  leakSignature: { openers: [TOOL_CALL_BEGIN], closers: [TOOL_CALL_END], body: /^\s*<function=/u },
  models: /seed[-_ ]?oss/iu,
  // vLLM `seed_oss`; SGLang `seed_oss`.
  parserNames: ['seed_oss'],
  engineNotes: {
    callInThink:
      "vLLM's seed_oss reasoning parser keeps everything before </seed:think> as reasoning; the tool parser never sees a call written there",
  },
  callWriter: seedOssCallWriter,
  noEngineGrammar:
    "no serving engine constrains Seed-OSS calls with a structural tag (vLLM's seed_oss tool parser sets structural_tag_model = None; xgrammar has no Seed-OSS tag), so strict tool calling enforces nothing for it",
  // No special-token table: Toolscope has read no public copy of Seed-OSS's tokenizer_config.json it can name, so
  // recorded tokens of a Seed-OSS record are not recognised as special (formats/recordedSpecialTokens.ts).
  tokenizer: { approximate: () => new MarkerSplitter(seedOssFormat) },
  detect(text: string): boolean {
    return /<seed:tool_call>\s*<function=/u.test(text) || text.includes(THINK_BEGIN) || text.includes(THINK_END);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new SeedOssParser(options);
  },
};
