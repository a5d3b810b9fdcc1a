/**
 * The Hermes / Qwen3 structural tag: what xgrammar 0.2.3's built-in `qwen_3` tag (python/xgrammar/
 * builtin_structural_tag.py, get_qwen_3_structural_tag) builds. A call is
 * `<tool_call>\n{"name": "<tool>", "arguments": <arguments>}\n</tool_call>` — that exact spelling: the name first,
 * one space after each colon and comma, a newline on each side of the object.
 * - auto: free text; `<tool_call>` triggers a call of a declared tool (think tags excluded from the text);
 * - required: one or more calls separated by a newline, nothing else;
 * - a named tool: exactly one call of it.
 * With `reasoning`, a think block ending in `</think>` and a blank line comes first (xgrammar's prefix tag).
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { argumentsFormat, callListTag } from '../structuralTag/callTags.ts';
import type { StructuralTag, TagFormat } from '../structuralTag/structuralTagFormat.ts';
import { qwenReasoningPrefix } from '../structuralTag/qwenReasoningPrefix.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';

export const HERMES_TAG_SHAPES: readonly string[] = ['xgrammar-qwen_3'];

const CALL_BEGIN_PREFIX = '<tool_call>\n{"name": "';
const ARGUMENTS_PREFIX = '", "arguments": ';
const CALL_END = '}\n</tool_call>';
const CALL_TRIGGER = '<tool_call>';
/** xgrammar's `THINK_EXCLUDE_TOKENS` (`exclude_special_tokens`, on by default in vLLM). */
const THINK_EXCLUDES = ['<think>', '</think>'];

function callTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${CALL_BEGIN_PREFIX}${tool.function.name}${ARGUMENTS_PREFIX}`,
    content: argumentsFormat(tool),
    end: CALL_END,
  };
}

/** The Hermes / Qwen3 tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildHermesStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const shape = { trigger: CALL_TRIGGER, separator: '\n', excludes: THINK_EXCLUDES };
  return callListTag(tools, toolChoice, callTag, shape, options.reasoning ? qwenReasoningPrefix() : null);
}
