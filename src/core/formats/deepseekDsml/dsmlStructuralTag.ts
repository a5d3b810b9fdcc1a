/**
 * The DSML structural tags: what xgrammar's built-in `deepseek_v3_2` and `deepseek_v4` tags build
 * (python/xgrammar/builtin_structural_tag.py, get_deepseek_v3_2_structural_tag / get_deepseek_v4_structural_tag,
 * mlc-ai/xgrammar@04597e925c359d9d7815d95349c560a993b048bb), the same shape with the block named `function_calls` or
 * `tool_calls`. A call is `<｜DSML｜invoke name="NAME">\n` + the arguments in xgrammar's `deepseek_xml` style + `</｜DSML｜invoke>\n`.
 * - auto: free text without the think tags; `<｜DSML｜tool_calls>` triggers a block `<｜DSML｜tool_calls>\n` … `</｜DSML｜tool_calls>`
 *   of at least one call, calls back to back; with no tools, free text alone;
 * - required: `\n\n<｜DSML｜tool_calls>\n`, at least one call, `</｜DSML｜tool_calls>`;
 * - a named tool: the same with exactly its call;
 * - with `reasoning`, any text up to `</think>` first.
 * xgrammar has no tag for V4.1's spaced tags, and its `deepseek_xml` style writes the unspaced `parameter`: the V4.1
 * shape is the one SGLang builds for it instead (python/sglang/srt/function_call/deepseekv41_detector.py @
 * 03783c137c96c35e86437a71d9628326949b0b0a, get_structural_tag): the V4 shape with the spaced names and JSON bodies.
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { argumentsFormat } from '../structuralTag/callTags.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat, XmlArgumentStyle } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import { V32_SPELLING, V41_SPELLING, V4_SPELLING, type DsmlSpelling } from './dsmlMarkers.ts';

/**
 * xgrammar's `deepseek_xml` argument style: `<｜DSML｜parameter name="KEY" string="true|false">VALUE</｜DSML｜parameter>`,
 * either attribute for any value (xgrammar does not check it). web-xgrammar 0.1.27 has no such style: guided decoding
 * lowers it from these tags (guided/xmlArgumentLowering.ts).
 */
export const DEEPSEEK_XML_STYLE: XmlArgumentStyle = {
  style: 'deepseek_xml',
  keyBegin: V4_SPELLING.parameterBegin,
  keyEnd: '" string="',
  keySuffixes: ['true">', 'false">'],
  valueBegin: '',
  valueEnd: V4_SPELLING.parameterEnd,
  spaceBeforeValue: false,
};

/** The default first: V4's tag. */
export const DSML_TAG_SHAPES: readonly string[] = ['xgrammar-deepseek_v4', 'xgrammar-deepseek_v3_2', 'sglang-deepseekv41'];

const THINK_EXCLUDES = ['<think>', '</think>'];
const TOOL_CALLS_PREFIX = '\n\n';

/** The shape whose block the text opens first (V3.2's, V4's or V4.1's); undefined when it opens none. */
export function dsmlShapeOf(text: string): string | undefined {
  let best: string | undefined;
  let bestAt = Infinity;
  for (const [spelling, shape] of [
    [V4_SPELLING, 'xgrammar-deepseek_v4'],
    [V32_SPELLING, 'xgrammar-deepseek_v3_2'],
    [V41_SPELLING, 'sglang-deepseekv41'],
  ] as const) {
    const at = text.indexOf(spelling.callsBegin);
    if (at >= 0 && at < bestAt) {
      best = shape;
      bestAt = at;
    }
  }
  return best;
}

function invokeTag(tool: ChatTool, spelling: DsmlSpelling, style: string): TagFormat {
  return {
    type: 'tag',
    begin: `${spelling.invokeBegin}${tool.function.name}">\n`,
    content: argumentsFormat(tool, style),
    end: `${spelling.invokeEnd}\n`,
  };
}

/** The DSML tag for a request's tools and tool_choice in a shape; throws StructuralTagError where xgrammar raises. */
export function buildDsmlStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const shape = options.shape ?? DSML_TAG_SHAPES[0];
  const spelling = shape === 'xgrammar-deepseek_v3_2' ? V32_SPELLING : shape === 'sglang-deepseekv41' ? V41_SPELLING : V4_SPELLING;
  // SGLang's V4.1 tag writes JSON bodies: xgrammar's deepseek_xml style holds the unspaced parameter tag.
  const style = spelling === V41_SPELLING ? 'json' : DEEPSEEK_XML_STYLE.style;
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags = fns.map((tool) => invokeTag(tool, spelling, style));
  const begin = `${spelling.callsBegin}\n`;
  let calls: StructuralTagFormat;
  if (choice === 'auto') {
    calls =
      tags.length === 0
        ? { type: 'any_text', excludes: [...THINK_EXCLUDES] }
        : {
            type: 'triggered_tags',
            triggers: [spelling.callsBegin],
            tags: [
              {
                type: 'tag',
                begin,
                content: { type: 'tags_with_separator', tags, separator: '', at_least_one: true, stop_after_first: false },
                end: spelling.callsEnd,
              },
            ],
            at_least_one: false,
            stop_after_first: false,
            excludes: [...THINK_EXCLUDES],
          };
  } else {
    const list: StructuralTagFormat =
      choice === 'forced'
        ? (tags[0] as TagFormat)
        : { type: 'tags_with_separator', tags, separator: '', at_least_one: true, stop_after_first: false };
    calls = {
      type: 'sequence',
      elements: [{ type: 'const_string', value: `${TOOL_CALLS_PREFIX}${begin}` }, list, { type: 'const_string', value: spelling.callsEnd }],
    };
  }
  if (!options.reasoning) return { type: 'structural_tag', format: calls };
  const think: TagFormat = { type: 'tag', begin: '', content: { type: 'any_text' }, end: '</think>' };
  return { type: 'structural_tag', format: { type: 'sequence', elements: [think, calls] } };
}
