/**
 * xgrammar's reasoning prefix of the Qwen tags (builtin_structural_tag.py, the `qwen_3` and `qwen_3_coder` built-ins):
 * any text up to `</think>`, then a blank line. Hermes / Qwen3 and Qwen3-Coder put it before their calls with
 * `reasoning`.
 */
import type { StructuralTagFormat } from './structuralTagFormat.ts';

export function qwenReasoningPrefix(): StructuralTagFormat {
  return {
    type: 'sequence',
    elements: [
      { type: 'tag', begin: '', content: { type: 'any_text', excludes: [] }, end: '</think>' },
      { type: 'const_string', value: '\n\n' },
    ],
  };
}
