/**
 * The MiniMax-M3 structural tag: what xgrammar's `minimax_m3` model tag builds (get_minimax_m3_structural_tag,
 * python/xgrammar/builtin_structural_tag.py @ mlc-ai/xgrammar 22ac68df4a2243cd8600126d4dc706433ba530fd, "feat: support
 * minimax-m3 style tool call structural tag"; the same envelope as `MinimaxM3Builder` of the Rust crate vLLM's front
 * end builds its tags with, src/builders/minimax_m3.rs @ Inferact/xgrammar-structural-tag
 * 8731d2d70be21a6b8bd4149fd7327f84422452e6). vLLM's minimax_m3 parser and SGLang's detector select no tag
 * (docs/formats/minimax.md says which engines were read):
 * - a call is `]<]minimax[>[<invoke name="NAME">` + the arguments in the `minimax_m3_xml` style (elements named after
 *   their keys, nested; guided/xmlElementLowering.ts lowers it for web-xgrammar 0.1.27) + `]<]minimax[>[</invoke>\n`;
 * - the calls sit back to back in one `]<]minimax[>[<tool_call>\n` … `]<]minimax[>[</tool_call>` block;
 * - auto: free text (without the think tags or a stray closing tag) that `]<]minimax[>[<tool_call>` leaves for a block
 *   of declared tools' calls; without tools, free text alone; required: the same with at least one block; a named
 *   tool: one block holding one call of it.
 * A thinking completion has the tag's reasoning prefix first, as xgrammar writes it: a `<mm:think>` … `</mm:think>`
 * block where the completion opens one (`reasoning_mode="auto"`), else any text up to `</mm:think>` where the prompt
 * opened it (`"enabled"`); the text excludes the think tags and stray call markup, as xgrammar's does (not the
 * block's trigger, which xgrammar excludes there too: web-xgrammar's reasoning text gets the free text's excludes).
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat, XmlArgumentStyle } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice, xgrammarParameters } from '../structuralTag/toolChoice.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import {
  ELEMENT_BEGIN,
  ELEMENT_END,
  INVOKE_BEGIN,
  INVOKE_END,
  NAMESPACE,
  THINK_BEGIN,
  THINK_END,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
} from './minimaxM3Markers.ts';

/**
 * xgrammar's `minimax_m3_xml` argument style: `]<]minimax[>[<KEY>VALUE]<]minimax[>[</KEY>` elements, `<item>` per
 * array item (MiniMaxM3XMLToolCallingConverter @ mlc-ai/xgrammar 22ac68df). The key/value fields describe one element
 * for the what-if's words; `elements` is what the lowering builds from.
 */
export const MINIMAX_M3_XML_STYLE: XmlArgumentStyle = {
  style: 'minimax_m3_xml',
  keyBegin: ELEMENT_BEGIN,
  keyEnd: '>',
  valueBegin: '',
  valueEnd: ELEMENT_END,
  spaceBeforeValue: false,
  elements: { prefix: NAMESPACE, arrayItem: 'item' },
};

/**
 * No reasoning (the default); a think block the completion opens (xgrammar's `reasoning_mode="auto"`); reasoning the
 * prompt opened, closed by the completion (`"enabled"`).
 */
export const MINIMAX_M3_TAG_SHAPES: readonly string[] = [
  'xgrammar-minimax_m3',
  'xgrammar-minimax_m3-think-block',
  'xgrammar-minimax_m3-thinking',
];

/** The shape a completion's own reasoning markup calls for. */
export function minimaxM3ShapeOf(text: string): string | undefined {
  if (text.startsWith(THINK_BEGIN)) return 'xgrammar-minimax_m3-think-block';
  return text.includes(THINK_END) ? 'xgrammar-minimax_m3-thinking' : undefined;
}

const BLOCK_BEGIN = `${TOOL_CALL_BEGIN}\n`;
// Complete protocol markers only: the namespace token alone begins every element (xgrammar's comment).
const SUFFIX_EXCLUDES = [THINK_BEGIN, THINK_END, TOOL_CALL_END, `${NAMESPACE}<invoke`, INVOKE_END];

function invokeTag(tool: ChatTool): TagFormat {
  const parameters = xgrammarParameters(tool);
  return {
    type: 'tag',
    begin: `${INVOKE_BEGIN}"${tool.function.name}">`,
    content: {
      type: 'json_schema',
      // M3 writes its arguments as named elements whatever the schema: an unconstrained tool is an open object.
      json_schema: parameters === true ? { type: 'object', additionalProperties: true } : parameters,
      style: MINIMAX_M3_XML_STYLE.style,
      any_order: false,
    },
    end: `${INVOKE_END}\n`,
  };
}

/** The M3 tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar's builder raises. */
export function buildMinimaxM3StructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags = fns.map(invokeTag);
  const block = (calls: TagFormat[], several: boolean): TagFormat => ({
    type: 'tag',
    begin: BLOCK_BEGIN,
    content: several
      ? { type: 'tags_with_separator', tags: calls, separator: '', at_least_one: true, stop_after_first: false }
      : (calls[0] as TagFormat),
    end: TOOL_CALL_END,
  });
  let suffix: StructuralTagFormat;
  if (choice === 'forced') suffix = block(tags.slice(0, 1), false);
  else if (tags.length === 0) suffix = { type: 'any_text', excludes: [TOOL_CALL_BEGIN, ...SUFFIX_EXCLUDES] };
  else
    suffix = {
      type: 'triggered_tags',
      triggers: [TOOL_CALL_BEGIN],
      tags: [block(tags, true)],
      at_least_one: choice === 'required',
      stop_after_first: false,
      excludes: [...SUFFIX_EXCLUDES],
    };
  if (options.shape !== 'xgrammar-minimax_m3-thinking' && options.shape !== 'xgrammar-minimax_m3-think-block')
    return { type: 'structural_tag', format: suffix };
  const begin = options.shape === 'xgrammar-minimax_m3-think-block' ? THINK_BEGIN : '';
  // web-xgrammar 0.1.27 takes no excludes inside a tag: the free text's (the call markup, the think tags) are put
  // on the reasoning too when the grammar is printed (guided/ebnfRules.ts addExcludes), `</mm:think>` its end.
  const think: TagFormat = { type: 'tag', begin, content: { type: 'any_text' }, end: THINK_END };
  return { type: 'structural_tag', format: { type: 'sequence', elements: [think, suffix] } };
}
