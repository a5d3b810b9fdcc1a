/**
 * Mistral tool calls (Mistral Small/Large/Medium, Devstral, Magistral, Ministral, Mistral 7B v0.3, Nemo) as a
 * `ToolCallFormat`: v11+ `[TOOL_CALLS]NAME[ARGS]{…}` and pre-v11 `[TOOL_CALLS][{"name": …, "arguments": …}]`, one
 * parser for both; reasoning `[THINK]…[/THINK]` (docs/formats/mistral.md).
 *
 * Guided decoding follows SGLang's Mistral structural tag (mistralStructuralTag.ts): xgrammar has no built-in tag for
 * Mistral. vLLM's grammar is mistral-common's Lark grammar, rendered from its Jinja grammar templates for the request's
 * tools and tool_choice (`grammar_factory.get_lark_from_jinja`, called from vllm/parser/mistral.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e `adjust_request`) and decoded by llguidance: named, not converted.
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { mistralCallIds } from './mistralCallIds.ts';
import { mistralCallWriter } from './mistralCallWriter.ts';
import { ARGS, CALL_ID, EOS, MISTRAL_TOKEN_MARKERS, TOOL_CALLS } from './mistralMarkers.ts';
import { MistralParser } from './mistralParser.ts';
import { mistralSpecialTokens } from './mistralSpecialTokens.ts';
import { buildMistralStructuralTag, MISTRAL_TAG_SHAPES, mistralTagCallWriter } from './mistralStructuralTag.ts';

export const mistralFormat: ToolCallFormat = {
  name: 'mistral',
  displayName: 'Mistral / Devstral / Magistral',
  markupSketch: '[TOOL_CALLS]name[ARGS]{"key": "value"}',
  markers: MISTRAL_TOKEN_MARKERS,
  leakFragments: [TOOL_CALLS, ARGS, CALL_ID],
  // No closer: a call ends where its JSON ends.
  leakSignature: { openers: [TOOL_CALLS], closers: [] },
  // `[CALL_ID]` ids: 9 letters or digits (mistralCallIds.ts).
  callIds: mistralCallIds,
  models: /mistral|mixtral|devstral|magistral|ministral|codestral|pixtral/iu,
  // vLLM `mistral`; SGLang `mistral`.
  parserNames: ['mistral'],
  engineNotes: {
    sectionEndsThink:
      "vLLM's Mistral parser ends the reasoning at [TOOL_CALLS] (its (REASONING, TOOL_CALLS) transition) and delivers the call",
  },
  callWriter: mistralCallWriter,
  tokenizer: {
    approximate: () => new MarkerSplitter(mistralFormat),
    // Tekken's first 20 control tokens (mistralSpecialTokens.ts): [TOOL_CALLS] 9, </s> 2; not [ARGS], [CALL_ID], [THINK].
    specialTokens: mistralSpecialTokens,
  },
  guided: {
    tagName: "SGLang's mistral structural tag",
    shapes: MISTRAL_TAG_SHAPES,
    // The turn ends: a record that keeps `</s>` ends there for the grammar as for the engine.
    stops: [EOS],
    // SGLang's tag has no reasoning part: the option changes nothing.
    structuralTag: (tools, toolChoice) => buildMistralStructuralTag(tools, toolChoice),
    callWriter: mistralTagCallWriter,
  },
  detect(text: string): boolean {
    return text.includes(TOOL_CALLS) || text.includes(ARGS);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new MistralParser(options);
  },
};
