/**
 * The Qwen3-Coder structural tag: what xgrammar 0.2.3's built-in `qwen_3_coder` tag (python/xgrammar/
 * builtin_structural_tag.py, get_qwen_3_5_structural_tag, registered as `qwen_3_5` and `qwen_3_coder`) builds. A call
 * is `<tool_call>\n<function=NAME>\n` + the arguments as XML parameters + `\n</function>\n</tool_call>`; the arguments
 * are the tool's schema in xgrammar's `qwen_xml` style (`<parameter=KEY>VALUE</parameter>` per property, strings
 * raw, other values JSON).
 * - auto: free text; `<tool_call>\n<function=` triggers a call of a declared tool (think tags excluded from the text);
 * - required: one or more calls separated by a newline, nothing else;
 * - a named tool: exactly one call of it.
 * With `reasoning`, a think block ending in `</think>` and a blank line comes first (the prefix of the Qwen tags).
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { qwenReasoningPrefix } from '../structuralTag/qwenReasoningPrefix.ts';
import { argumentsFormat, callListTag } from '../structuralTag/callTags.ts';
import type { StructuralTag, TagFormat, XmlArgumentStyle } from '../structuralTag/structuralTagFormat.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import { FUNCTION_BEGIN, FUNCTION_END, PARAMETER_BEGIN, PARAMETER_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './qwen3CoderMarkers.ts';

/** xgrammar's `qwen_xml` argument style: `<parameter=KEY>VALUE</parameter>` per property. */
export const QWEN_XML_STYLE: XmlArgumentStyle = {
  style: 'qwen_xml',
  keyBegin: PARAMETER_BEGIN,
  keyEnd: '>',
  valueBegin: '',
  valueEnd: PARAMETER_END,
  spaceBeforeValue: false,
};

export const QWEN3_CODER_TAG_SHAPES: readonly string[] = ['xgrammar-qwen_3_coder'];

// The trigger is the begin every call shares, up to the tool name (not `<tool_call>` alone, as for Qwen3's JSON).
const CALL_TRIGGER = `${TOOL_CALL_BEGIN}\n${FUNCTION_BEGIN}`;
const CALL_END = `\n${FUNCTION_END}\n${TOOL_CALL_END}`;
/** xgrammar's `THINK_EXCLUDE_TOKENS` (`exclude_special_tokens`, on by default in vLLM). */
const THINK_EXCLUDES = ['<think>', '</think>'];

function callTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${CALL_TRIGGER}${tool.function.name}>\n`,
    content: argumentsFormat(tool, QWEN_XML_STYLE.style),
    end: CALL_END,
  };
}

/** The Qwen3-Coder tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildQwen3CoderStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const shape = { trigger: CALL_TRIGGER, separator: '\n', excludes: THINK_EXCLUDES };
  return callListTag(tools, toolChoice, callTag, shape, options.reasoning ? qwenReasoningPrefix() : null);
}
