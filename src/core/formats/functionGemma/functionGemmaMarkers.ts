/**
 * The markup of FunctionGemma completions (google/functiongemma-270m-it; vllm/tool_parsers/functiongemma_tool_parser.py
 * @ 017e9f4448b700e85ee16023287b025693c72b9e):
 *
 *   <start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>
 *
 * Every tag and the `<escape>` delimiter is one token of the vocabulary; calls follow each other back to back; the
 * model hands over with `<start_function_response>` and ends its turn with `<end_of_turn>`. No reasoning.
 */
import { FUNCTION_GEMMA_STRING } from '../kernel/gemmaArguments.ts';
import type { GemmaRole } from '../kernel/gemmaCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const FUNCTION_GEMMA_CALL_BEGIN = '<start_function_call>';
export const FUNCTION_GEMMA_CALL_END = '<end_function_call>';
export const FUNCTION_GEMMA_ESCAPE = FUNCTION_GEMMA_STRING;

export const FUNCTION_GEMMA_SCAN_TABLE: readonly MarkerDef<GemmaRole>[] = [
  { text: FUNCTION_GEMMA_CALL_BEGIN, name: 'call-begin' },
  { text: FUNCTION_GEMMA_CALL_END, name: 'call-end' },
  { text: '<start_function_response>', name: 'end-of-turn' },
  { text: '<end_of_turn>', name: 'end-of-turn' },
];

/** Every single-token marker, the `<escape>` delimiter too (for tokenising and the timeline). */
export const FUNCTION_GEMMA_TOKEN_MARKERS: readonly string[] = [...FUNCTION_GEMMA_SCAN_TABLE.map((m) => m.text), FUNCTION_GEMMA_ESCAPE];
