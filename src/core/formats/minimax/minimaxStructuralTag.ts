/**
 * The MiniMax structural tag: what vLLM's own `minimax` tag builds (vllm/tool_parsers/structural_tag_registry.py,
 * get_minimax_structural_tag, vllm-project/vllm@017e9f4448b700e85ee16023287b025693c72b9e; `structural_tag_model =
 * "minimax"` of the minimax_m2 tool parser). A call is `<invoke name="NAME">\n` + the arguments in xgrammar's
 * `minimax_xml` style (`<parameter name="KEY">VALUE</parameter>` per property, strings raw, other values JSON) +
 * `</invoke>\n`; the calls sit back to back in one `<minimax:tool_call>\n` … `</minimax:tool_call>` block.
 * - auto: free text (no think tags); `<minimax:tool_call>` triggers a block of one or more calls of declared tools;
 *   with no tools, free text alone;
 * - required: `\n<minimax:tool_call>\n`, one or more calls, `</minimax:tool_call>`;
 * - a named tool: the same block with exactly one call of it.
 * The tag ignores `reasoning` (vLLM deletes the argument): the think block is the reasoning parser's.
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { argumentsFormat } from '../structuralTag/callTags.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat, XmlArgumentStyle } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import { INVOKE_BEGIN, INVOKE_END, PARAMETER_BEGIN, PARAMETER_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxMarkers.ts';

/**
 * xgrammar's `minimax_xml` argument style (`<parameter name="KEY">VALUE</parameter>`, the structural-tag docs of
 * mlc-ai/xgrammar). web-xgrammar 0.1.27 has no such style: guided decoding lowers it from these tags, as it lowers
 * `qwen_xml` (guided/xmlArgumentLowering.ts).
 */
export const MINIMAX_XML_STYLE: XmlArgumentStyle = {
  style: 'minimax_xml',
  keyBegin: `${PARAMETER_BEGIN}"`,
  keyEnd: '">',
  valueBegin: '',
  valueEnd: PARAMETER_END,
  spaceBeforeValue: false,
};

export const MINIMAX_TAG_SHAPES: readonly string[] = ['vllm-minimax'];

const THINK_EXCLUDES = ['<think>', '</think>'];
const BLOCK_BEGIN = `${TOOL_CALL_BEGIN}\n`;

function invokeTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${INVOKE_BEGIN}"${tool.function.name}">\n`,
    content: argumentsFormat(tool, MINIMAX_XML_STYLE.style),
    end: `${INVOKE_END}\n`,
  };
}

/** The MiniMax tag for a request's tools and tool_choice; throws StructuralTagError where vLLM's builder raises. */
export function buildMinimaxStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags = fns.map(invokeTag);
  const calls = (stopAfterFirst: boolean): StructuralTagFormat => ({
    type: 'tags_with_separator',
    tags,
    separator: '',
    at_least_one: true,
    stop_after_first: stopAfterFirst,
  });
  let format: StructuralTagFormat;
  if (choice === 'auto') {
    format =
      tags.length === 0
        ? { type: 'any_text', excludes: [...THINK_EXCLUDES] }
        : {
            type: 'triggered_tags',
            triggers: [TOOL_CALL_BEGIN],
            tags: [{ type: 'tag', begin: BLOCK_BEGIN, content: calls(false), end: TOOL_CALL_END }],
            at_least_one: false,
            stop_after_first: false,
            excludes: [...THINK_EXCLUDES],
          };
  } else {
    format = {
      type: 'sequence',
      elements: [
        { type: 'const_string', value: `\n${BLOCK_BEGIN}` },
        calls(choice === 'forced'),
        { type: 'const_string', value: TOOL_CALL_END },
      ],
    };
  }
  return { type: 'structural_tag', format };
}
