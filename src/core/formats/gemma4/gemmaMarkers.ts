/**
 * The markup of Gemma 4 completions (Google); FunctionGemma's is in ../functionGemma/. Both write a call as `call:NAME{…}` between a
 * begin and an end token, the arguments in Gemma's own notation (bare keys, delimited strings):
 *
 *   Gemma 4 (vllm/parser/gemma4.py @ 017e9f4448b700e85ee16023287b025693c72b9e):
 *   <|channel>thought
 *   …reasoning…<channel|><|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>
 *
 *   FunctionGemma (vllm/tool_parsers/functiongemma_tool_parser.py @ 017e9f4):
 *   <start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>
 *
 * Every tag, and the string delimiters `<|"|>` and `<escape>`, is one token of the models' vocabularies. Calls follow
 * each other back to back. A Gemma 4 turn ends with `<turn|>`; the model hands over to the tool with
 * `<|tool_response>` (FunctionGemma: `<start_function_response>`), and FunctionGemma's turn ends with `<end_of_turn>`.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';
import { GEMMA_STRING } from '../kernel/gemmaArguments.ts';
import type { GemmaRole } from '../kernel/gemmaCallParser.ts';

export const GEMMA4_CALL_BEGIN = '<|tool_call>';
export const GEMMA4_CALL_END = '<tool_call|>';
export const GEMMA4_CHANNEL_BEGIN = '<|channel>';
export const GEMMA4_CHANNEL_END = '<channel|>';
export const GEMMA4_STRING = GEMMA_STRING;

/** What the Gemma 4 parser recognises, by role. */
export const GEMMA4_SCAN_TABLE: readonly MarkerDef<GemmaRole>[] = [
  { text: GEMMA4_CALL_BEGIN, name: 'call-begin' },
  { text: GEMMA4_CALL_END, name: 'call-end' },
  { text: GEMMA4_CHANNEL_BEGIN, name: 'think-begin' },
  { text: GEMMA4_CHANNEL_END, name: 'think-end' },
  { text: '<turn|>', name: 'end-of-turn' },
  { text: '<|tool_response>', name: 'end-of-turn' },
];

/** Every single-token marker of Gemma 4's markup, the string delimiter too (for tokenising and the timeline). */
export const GEMMA4_TOKEN_MARKERS: readonly string[] = [...GEMMA4_SCAN_TABLE.map((m) => m.text), GEMMA4_STRING];
