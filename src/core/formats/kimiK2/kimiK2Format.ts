/** Kimi K2 as a `ToolCallFormat`: markers, detection and the reference parser. */
import { kimiK2CallWriter } from './kimiK2CallWriter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import {
  CALL_BEGIN,
  CALL_END,
  CANONICAL_CALL_ID,
  indexFromCallId,
  KIMI_MARKERS,
  KIMI_TOOL_MARKER_TEXTS,
  nameFromCallId,
  SECTION_BEGIN,
  SECTION_BEGIN_SINGULAR,
  SECTION_END,
  SECTION_END_SINGULAR,
} from './kimiK2Markers.ts';
import { findRawFallbackCalls } from './rawFallbackScanner.ts';
import { kimiSpecialTokenTable, specialTokenId } from './kimiSpecialTokens.ts';
import { KimiK2Parser } from './kimiK2Parser.ts';
import { KIMI_K2_DEFAULT_TEMPLATE } from './kimiK2DefaultTemplate.ts';
import { runVllmProfile } from './vllm/profileRun.ts';
import { VLLM_GENERATIONS } from './vllm/vllmProfiles.ts';
import { VllmServerParser } from './vllm/vllmServerParser.ts';
import { buildKimiStructuralTag, STRUCTURAL_TAG_SHAPES, type StructuralTagShape } from './kimiK2StructuralTag.ts';
import { KimiSplitter } from './kimiSplitter.ts';
import { kimiK2CallHeader } from './kimiK2CallHeader.ts';
import { kimiK2VocabularyMarkup } from './kimiK2VocabularyMarkup.ts';
import { forEachPiece } from '../../tokens/approximatePretokenizer.ts';

export const kimiK2Format: ToolCallFormat = {
  name: 'kimi_k2',
  displayName: 'Kimi K2',
  markupSketch: '<|tool_calls_section_begin|> … <|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{json}<|tool_call_end|>',
  markers: KIMI_MARKERS.map((m) => m.text),
  // Whole markers, and the pieces a split marker leaves behind.
  leakFragments: [...KIMI_TOOL_MARKER_TEXTS, '<|tool_call', '_section_begin|>', '_section_end|>', 'argument_begin|>'],
  leakSignature: {
    openers: [SECTION_BEGIN, SECTION_BEGIN_SINGULAR, CALL_BEGIN],
    closers: [SECTION_END, SECTION_END_SINGULAR, CALL_END],
  },
  // The five markers by their real ids (163595–163599), as a GGUF decoder that names tokens by id spells them.
  markerSpellings: KIMI_TOOL_MARKER_TEXTS.flatMap((marker) => {
    const id = specialTokenId(marker);
    return id === undefined ? [] : [{ spelling: `<|reserved_token_${id}|>`, marker }];
  }),
  callIds: {
    problem: (id) => (CANONICAL_CALL_ID.test(id) ? null : `call id "${id}" is not of the form functions.<name>:<index>`),
    nameOf: nameFromCallId,
    indexOf: indexFromCallId,
    hint: 'Kimi K2 expects ids like functions.search:2; ids such as "search:2" in the history derail later turns. Keep the model\'s id and fix the history ids the client sends back.',
    form: 'functions.name:index',
    historyHint:
      'Kimi K2 renders history ids as they are and imitates them: rewrite ids to functions.<name>:<index> before sending the conversation back.',
  },
  findRawFallback: findRawFallbackCalls,
  // Kimi K2 and later Kimi models, and Moonshot's API names for them (`moonshot`, as in K2-Vendor-Verifier's requests),
  // but not Kimi K3, whose markup is its own format (kimi_k3).
  models: /^(?!.*kimi[-_ ]?k3)[\s\S]*(?:kimi|moonshot)/iu,
  parserNames: ['kimi_k2'],
  // Sources (file and commit) in docs/formats/kimi-k2.md, "Engines disagree".
  engineNotes: {
    callInThink:
      "vLLM's kimi_k2 reasoning parser and SGLang's Kimi K2 detector end reasoning only at </think> or the section begin, so a bare <|tool_call_begin|> stays reasoning and the client gets no call; llama.cpp's Kimi K2 parser ends the reasoning at it and returns the call",
    sectionEndsThink:
      "current vLLM (kimi_k2 reasoning parser, PR 33646), SGLang (Kimi K2 reasoning detector) and llama.cpp (Kimi K2 parser) do the same and deliver the calls; vLLM's earlier kimi_k2 reasoning parser (DeepSeek-R1's, </think> only) kept them in reasoning_content and the client got no call",
    closedLater:
      'A </think> follows the section: streaming vLLM and SGLang still end the reasoning at the section, but their non-streaming parsers split at that </think> and keep the calls as reasoning.',
  },
  // Kimi's tokenizer is tiktoken BPE (tiktoken.model + tokenizer_config.json) with its own pre-tokenizer pattern.
  callWriter: kimiK2CallWriter,
  tokenizer: {
    approximate: () => new KimiSplitter(),
    tiktoken: forEachPiece,
    gguf: { 'kimi-k2': forEachPiece },
    specialTokens: kimiSpecialTokenTable,
  },
  chatTemplate: {
    label: "Toolscope's Kimi K2 template (written from the documented format; your model's own template may differ)",
    source: KIMI_K2_DEFAULT_TEMPLATE,
    userTemplates: true,
  },
  engineProfiles: {
    generations: VLLM_GENERATIONS,
    run: runVllmProfile,
    serverParser: (generation, tokens, text) => new VllmServerParser(generation, tokens, text),
  },
  guided: {
    builtinStyle: 'kimi',
    shapes: STRUCTURAL_TAG_SHAPES,
    callHeader: kimiK2CallHeader,
    markupInVocabulary: kimiK2VocabularyMarkup,
    structuralTag: (tools, toolChoice, options) =>
      buildKimiStructuralTag(tools, toolChoice, { shape: options?.shape as StructuralTagShape | undefined }),
  },
  detect(text: string): boolean {
    return /<\|tool_calls?_section_begin\|>|<\|tool_call_begin\|>|(?<![A-Za-z0-9_.])functions\.[A-Za-z0-9_.-]+:\d+/u.test(text);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new KimiK2Parser(options);
  },
};
