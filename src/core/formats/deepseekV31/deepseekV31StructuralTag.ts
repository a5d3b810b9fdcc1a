/**
 * The DeepSeek-V3.1 structural tag: what xgrammar 0.2.3's built-in `deepseek_v3_1` tag (python/xgrammar/
 * builtin_structural_tag.py, get_deepseek_v3_1_structural_tag) builds. Calls sit in a section,
 * `<｜tool▁calls▁begin｜>` … `<｜tool▁calls▁end｜>`, each `<｜tool▁call▁begin｜>name<｜tool▁sep｜>{json}<｜tool▁call▁end｜>`
 * with nothing between them.
 * - auto: free text; the section begin triggers the section (think tags excluded from the text);
 * - required: the section with one or more calls, nothing else;
 * - a named tool: the section with exactly that one call, written as one tag.
 * With `reasoning`, any text up to `</think>` comes first (xgrammar's prefix tag; no blank line, unlike Qwen).
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import { argumentsFormat } from '../structuralTag/callTags.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat } from '../structuralTag/structuralTagFormat.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import { CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, TOOL_SEP } from './deepseekV31Markers.ts';

export const DEEPSEEK_V31_TAG_SHAPES: readonly string[] = ['xgrammar-deepseek_v3_1'];

const THINK_EXCLUDES = ['<think>', '</think>'];

function callTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${CALL_BEGIN}${tool.function.name}${TOOL_SEP}`,
    content: argumentsFormat(tool),
    end: CALL_END,
  };
}

/** The DeepSeek-V3.1 tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildDeepseekV31StructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags = fns.map(callTag);
  const section = (): TagFormat => ({
    type: 'tag',
    begin: CALLS_BEGIN,
    content: { type: 'tags_with_separator', tags, separator: '', at_least_one: true, stop_after_first: false },
    end: CALLS_END,
  });
  let format: StructuralTagFormat;
  if (choice === 'forced') {
    const only = tags[0] as TagFormat;
    format = { ...only, begin: `${CALLS_BEGIN}${only.begin}`, end: `${CALL_END}${CALLS_END}` };
  } else if (choice === 'required') format = section();
  else if (tags.length === 0) format = { type: 'any_text', excludes: [...THINK_EXCLUDES] };
  else
    format = {
      type: 'triggered_tags',
      triggers: [CALLS_BEGIN],
      tags: [section()],
      at_least_one: false,
      stop_after_first: false,
      excludes: [...THINK_EXCLUDES],
    };
  if (options.reasoning)
    format = {
      type: 'sequence',
      elements: [{ type: 'tag', begin: '', content: { type: 'any_text', excludes: [] }, end: '</think>' }, format],
    };
  return { type: 'structural_tag', format };
}
