/**
 * The Hy3 structural tag: what vLLM's own Hy3 builder builds (rust/src/parser/src/tool/hy_v3/structural_tag.rs,
 * HyV3StructuralTagBuilder, vllm-project/vllm@9b812aa103a9c75090301eeb0fc8a9ba8ad30477), its tags spelled with the
 * checkpoint's suffix as vLLM takes it from the tokenizer. It constrains the skeleton only:
 * - a call is `<tool_call>NAME<tool_sep>\n` of a declared tool, its arguments, `</tool_call>`; calls a `\n` apart in
 *   one `<tool_calls>\n` … `\n</tool_calls>` section;
 * - the arguments: each required key in declaration order, then any optional keys in any order, repeats allowed; an
 *   argument is `<arg_key>KEY</arg_key>\n<arg_value>` + any text + `</arg_value>\n`; a tool with no keys takes any text;
 * - auto: free text, `<tool_calls>` triggers the section; required: the section with at least one call; a named
 *   tool: the section with exactly its call.
 * Values are free text (vLLM's parser types them afterwards), so the tag never refuses a value: an out-of-range
 * integer passes. vLLM builds the optional keys with `star`/`or`; here they are a list of tags, which is the same
 * language written with the formats web-xgrammar 0.1.27 has. vLLM also excludes the markers from a value; here a
 * value runs to its tag's end, as the parsers read it. vLLM's later Python `hy_v4` tag (structural_tag_registry.py)
 * is Hy4's markup (no `<tool_sep>`): no Hy3 call fits it (docs/formats/hy3.md).
 */
import type { ChatTool, JsonObject, ToolChoice } from '../../trace/record.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import {
  ARG_KEY_BEGIN,
  ARG_KEY_END,
  ARG_VALUE_BEGIN,
  ARG_VALUE_END,
  HY3_SUFFIX,
  suffixed,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
  TOOL_CALLS_BEGIN,
  TOOL_CALLS_END,
  THINK_END,
  TOOL_SEP,
} from './hy3Markers.ts';

/**
 * The suffixed spelling of the public checkpoints (the default), and the bare one of vLLM's tests; and the suffixed
 * one with the reasoning first (`-thinking`). vLLM's hy_v3 reasoning parser ends the reasoning at `</think` + the
 * tokenizer's `token_suffix` + `>` (vllm/reasoning/hy_v3_reasoning_parser.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e, `end_token`) and the grammar starts after it. The what-if skips reasoning
 * up to a bare `</think>` itself; the suffixed end it does not know, so that shape puts the reasoning ahead of the tag:
 * any text up to `</think:opensource>`.
 */
export const HY3_TAG_SHAPES: readonly string[] = ['vllm-hy_v3', 'vllm-hy_v3-bare', 'vllm-hy_v3-thinking'];

/**
 * The shape of a completion's spelling: bare when it writes a bare section or separator and no suffixed one; the
 * suffixed one with its reasoning first when it closes `</think:opensource>`.
 */
export function hy3ShapeOf(text: string): string | undefined {
  const suffixedMarkup = text.includes(suffixed(TOOL_CALLS_BEGIN, HY3_SUFFIX)) || text.includes(suffixed(TOOL_SEP, HY3_SUFFIX));
  const bare = text.includes(TOOL_CALLS_BEGIN) || text.includes(TOOL_SEP);
  if (bare && !suffixedMarkup) return 'vllm-hy_v3-bare';
  return text.includes(suffixed(THINK_END, HY3_SUFFIX)) ? 'vllm-hy_v3-thinking' : undefined;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Required keys (declared ones first, then required keys the properties lack) and optional ones, in order. */
function argumentKeys(parameters: unknown): { required: string[]; optional: string[] } {
  if (!isObject(parameters)) return { required: [], optional: [] };
  const props = isObject(parameters.properties) ? Object.keys(parameters.properties) : [];
  const listed = Array.isArray(parameters.required) ? parameters.required.filter((k): k is string => typeof k === 'string') : [];
  const requiredSet = new Set(listed);
  return {
    required: [...props.filter((k) => requiredSet.has(k)), ...listed.filter((k) => !props.includes(k))],
    optional: props.filter((k) => !requiredSet.has(k)),
  };
}

export function buildHy3StructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const s = options.shape === 'vllm-hy_v3-bare' ? '' : HY3_SUFFIX;
  const tag = (bare: string) => (s ? suffixed(bare, s) : bare);
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);

  const argument = (key: string): TagFormat => ({
    type: 'tag',
    begin: `${tag(ARG_KEY_BEGIN)}${key}${tag(ARG_KEY_END)}\n${tag(ARG_VALUE_BEGIN)}`,
    content: { type: 'any_text' },
    end: `${tag(ARG_VALUE_END)}\n`,
  });
  const callTag = (tool: ChatTool): TagFormat => {
    const { required, optional } = argumentKeys(tool.function.parameters);
    const elements: StructuralTagFormat[] = required.map(argument);
    if (optional.length)
      elements.push({
        type: 'tags_with_separator',
        tags: optional.map(argument),
        separator: '',
        at_least_one: false,
        stop_after_first: false,
      });
    const content: StructuralTagFormat =
      elements.length === 0
        ? { type: 'any_text' }
        : elements.length === 1
          ? (elements[0] as StructuralTagFormat)
          : { type: 'sequence', elements };
    return { type: 'tag', begin: `${tag(TOOL_CALL_BEGIN)}${tool.function.name}${tag(TOOL_SEP)}\n`, content, end: tag(TOOL_CALL_END) };
  };

  const calls = fns.map(callTag);
  const begin = `${tag(TOOL_CALLS_BEGIN)}\n`;
  const end = `\n${tag(TOOL_CALLS_END)}`;
  const list: StructuralTagFormat = {
    type: 'tags_with_separator',
    tags: calls,
    separator: '\n',
    at_least_one: true,
    stop_after_first: false,
  };
  let format: StructuralTagFormat;
  if (choice === 'auto')
    format =
      calls.length === 0
        ? { type: 'any_text' }
        : {
            type: 'triggered_tags',
            triggers: [tag(TOOL_CALLS_BEGIN)],
            tags: [{ type: 'tag', begin, content: list, end }],
            at_least_one: false,
            stop_after_first: false,
          };
  else
    format = {
      type: 'sequence',
      elements: [
        { type: 'const_string', value: begin },
        choice === 'forced' ? (calls[0] as TagFormat) : list,
        { type: 'const_string', value: end },
      ],
    };
  if (options.shape !== 'vllm-hy_v3-thinking') return { type: 'structural_tag', format };
  // The reasoning before the grammar starts: any text up to the reasoning parser's end token.
  const think: TagFormat = { type: 'tag', begin: '', content: { type: 'any_text' }, end: tag(THINK_END) };
  return {
    type: 'structural_tag',
    format: { type: 'sequence', elements: [think, ...(format.type === 'sequence' ? format.elements : [format])] },
  };
}
