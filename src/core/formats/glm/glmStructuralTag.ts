/**
 * The GLM structural tag: what xgrammar's built-in `glm_4_7` tag (python/xgrammar/builtin_structural_tag.py,
 * get_glm_4_7_structural_tag, mlc-ai/xgrammar@04597e925c359d9d7815d95349c560a993b048bb) builds. A call is
 * `<tool_call>NAME` + the arguments in xgrammar's `glm_xml` style (`<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`
 * per property, strings raw, other values JSON) + `</tool_call>`.
 * - auto: free text; `<tool_call>` triggers a call of a declared tool; the text may hold neither the think tags nor
 *   `</tool_call>` nor the argument tags (`TEXT_EXCLUDES`); with no tools, `<tool_call>` is excluded too;
 * - required: the same with at least one call;
 * - a named tool: exactly one call of it.
 * With `reasoning`, any text up to `</think>` (holding none of the tags) comes first. xgrammar has no tag of its own for
 * GLM-4.5/4.6; their line breaks between the tags are whitespace the arguments grammar lets through, so the same tag
 * serves both layouts.
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { argumentsFormat } from '../structuralTag/callTags.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat, XmlArgumentStyle } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import { ARG_KEY_BEGIN, ARG_KEY_END, ARG_VALUE_BEGIN, ARG_VALUE_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './glmMarkers.ts';

/**
 * xgrammar's `glm_xml` argument style. web-xgrammar 0.1.27 has no such style: guided decoding lowers it from these
 * tags, whitespace allowed between `</arg_key>` and `<arg_value>` for GLM-4.5's line break.
 */
export const GLM_XML_STYLE: XmlArgumentStyle = {
  style: 'glm_xml',
  keyBegin: ARG_KEY_BEGIN,
  keyEnd: ARG_KEY_END,
  valueBegin: ARG_VALUE_BEGIN,
  valueEnd: ARG_VALUE_END,
  spaceBeforeValue: true,
};

export const GLM_TAG_SHAPES: readonly string[] = ['xgrammar-glm_4_7'];

const THINK_EXCLUDES = ['<think>', '</think>'];
const ARG_TOKENS = [ARG_KEY_BEGIN, ARG_KEY_END, ARG_VALUE_BEGIN, ARG_VALUE_END];
const REASONING_EXCLUDES = [...THINK_EXCLUDES, TOOL_CALL_BEGIN, TOOL_CALL_END, ...ARG_TOKENS];
const TEXT_EXCLUDES = [...THINK_EXCLUDES, TOOL_CALL_END, ...ARG_TOKENS];

function callTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${TOOL_CALL_BEGIN}${tool.function.name}`,
    content: argumentsFormat(tool, GLM_XML_STYLE.style),
    end: TOOL_CALL_END,
  };
}

/** The GLM tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildGlmStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags = fns.map(callTag);
  let calls: StructuralTagFormat;
  if (choice === 'forced') calls = tags[0] as TagFormat;
  else if (tags.length === 0) calls = { type: 'any_text', excludes: [...REASONING_EXCLUDES] };
  else
    calls = {
      type: 'triggered_tags',
      triggers: [TOOL_CALL_BEGIN],
      tags,
      at_least_one: choice === 'required',
      stop_after_first: false,
      excludes: [...TEXT_EXCLUDES],
    };
  if (!options.reasoning) return { type: 'structural_tag', format: calls };
  const think: TagFormat = { type: 'tag', begin: '', content: { type: 'any_text', excludes: [...REASONING_EXCLUDES] }, end: '</think>' };
  return { type: 'structural_tag', format: { type: 'sequence', elements: [think, calls] } };
}
