/**
 * The markup of LiquidAI LFM2 / LFM2.5 tool calls: a pythonic list between `<|tool_call_start|>` and
 * `<|tool_call_end|>` (special tokens of the vocabulary: vLLM's lfm2_tool_parser.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e looks both up in the vocabulary and turns skip_special_tokens off so they
 * reach it), anywhere in the answer, content before and after. Reasoning (LFM2.5 Thinking) is `<think>`…`</think>`;
 * the turn ends with `<|im_end|>` (ChatML roles).
 */
import type { MarkerDef } from '../kernel/markupParser.ts';
import type { PythonicRole } from '../kernel/pythonicCallParser.ts';

export const TOOL_CALL_START = '<|tool_call_start|>';
export const TOOL_CALL_END = '<|tool_call_end|>';

export const LFM2_TABLE: readonly MarkerDef<PythonicRole>[] = [
  { text: TOOL_CALL_START, name: 'block-begin' },
  { text: TOOL_CALL_END, name: 'block-end' },
  { text: '<think>', name: 'think-begin' },
  { text: '</think>', name: 'think-end' },
  { text: '<|im_end|>', name: 'end-of-turn' },
];

export const LFM2_MARKERS: readonly string[] = LFM2_TABLE.map((m) => m.text);
