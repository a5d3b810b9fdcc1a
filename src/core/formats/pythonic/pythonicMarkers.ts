/**
 * The markup around pythonic tool calls `[f(a=1), g()]`. The list itself is plain text; around it:
 * - Llama 4's `<|python_start|>` … `<|python_end|>` (special tokens 200016 and 200017 of its vocabulary,
 *   meta-llama/llama-models models/llama4/tokenizer.py @ 70f7766104338f129bbb84f71c963a5b22011e7c), which vLLM's
 *   `llama4_pythonic` parser strips when the output starts with them;
 * - Olmo 3's `<function_calls>` … `</function_calls>` with one call a line (vLLM olmo3_tool_parser.py @ 017e9f44);
 * - reasoning `<think>` … `</think>` (Olmo 3 Think);
 * - the turn's end: Llama 4's `<|eot|>`/`<|eom|>`, Llama 3.2's `<|eot_id|>`/`<|eom_id|>`.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';
import type { PythonicRole } from '../kernel/pythonicCallParser.ts';

export const PYTHON_START = '<|python_start|>';
export const PYTHON_END = '<|python_end|>';
export const FUNCTION_CALLS = '<function_calls>';
export const FUNCTION_CALLS_END = '</function_calls>';

export const PYTHONIC_TABLE: readonly MarkerDef<PythonicRole>[] = [
  { text: PYTHON_START, name: 'block-begin' },
  { text: PYTHON_END, name: 'block-end' },
  { text: FUNCTION_CALLS, name: 'block-begin' },
  { text: FUNCTION_CALLS_END, name: 'block-end' },
  { text: '<think>', name: 'think-begin' },
  { text: '</think>', name: 'think-end' },
  { text: '<|eot|>', name: 'end-of-turn' },
  { text: '<|eom|>', name: 'end-of-turn' },
  { text: '<|eot_id|>', name: 'end-of-turn' },
  { text: '<|eom_id|>', name: 'end-of-turn' },
];

export const PYTHONIC_MARKERS: readonly string[] = PYTHONIC_TABLE.map((m) => m.text);
