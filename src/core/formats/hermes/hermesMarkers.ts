/**
 * The markup of Hermes-style completions (NousResearch Hermes 2 Pro, Qwen2.5, Qwen3): each call is a JSON object
 * `{"name": …, "arguments": {…}}` between `<tool_call>` and `</tool_call>`, calls in a row, usually with a newline
 * inside the tags. Qwen3 models think in `<think>…</think>` first. All of these are single special tokens in the
 * Qwen and Hermes vocabularies.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_BEGIN = '<tool_call>';
export const TOOL_CALL_END = '</tool_call>';
export const THINK_BEGIN = '<think>';
export const THINK_END = '</think>';
export const IM_END = '<|im_end|>';
export const END_OF_TEXT = '<|endoftext|>';

export type HermesMarkerName = 'call-begin' | 'call-end' | 'think-begin' | 'think-end' | 'end-of-turn';

export const HERMES_MARKERS: readonly MarkerDef<HermesMarkerName>[] = [
  { text: TOOL_CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_CALL_END, name: 'call-end' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
  { text: IM_END, name: 'end-of-turn' },
  { text: END_OF_TEXT, name: 'end-of-turn' },
];

/** The keys of the call object that carry the arguments (`parameters` is an older spelling some models use). */
export const ARGUMENT_KEYS: readonly string[] = ['arguments', 'parameters'];
