/**
 * The one Kimi K2 structural-tag builder, used by replay (what goes on the wire) and by the what-if analysis
 * (what gets compiled). Two shapes:
 * - `xgrammar-kimi` (default): exactly what xgrammar 0.2.3's built-in `kimi` tag builds with `reasoning=False`,
 *   which current vLLM sends (shared/data/vllm-kimi/structural-tag-kimi.xgrammar-0.2.3.md).
 * - `pr36891`: the older shape of vLLM PR 36891 (xgrammar 0.2.0): triggered on `<|tool_call_begin|>`, no section
 *   wrapper, tool_choice auto only.
 */
import type { ChatRequest, ChatTool, ToolChoice } from '../../trace/record.ts';
import { normalizeToolChoice, StructuralTagError, xgrammarParameters } from '../structuralTag/toolChoice.ts';
import { ARGUMENT_BEGIN, CALL_BEGIN, CALL_END, SECTION_BEGIN, SECTION_END, THINK_BEGIN, THINK_END } from './kimiK2Markers.ts';
import type { JsonSchemaFormat, StructuralTag, StructuralTagFormat, TagFormat } from '../structuralTag/structuralTagFormat.ts';

export type StructuralTagShape = 'xgrammar-kimi' | 'pr36891';
export const STRUCTURAL_TAG_SHAPES: readonly StructuralTagShape[] = ['xgrammar-kimi', 'pr36891'];

export interface StructuralTagOptions {
  shape?: StructuralTagShape;
}

/** The begin string of a tool's tag: the call id up to the index, `functions.` prefix included. */
export function toolTagBegin(name: string): string {
  return `${CALL_BEGIN}functions.${name}:`;
}

/** Free text may not contain these (xgrammar's `exclude_special_tokens`, on by default in vLLM). */
const THINK_EXCLUDES = [THINK_BEGIN, THINK_END];

function kimiToolTag(name: string, schema: JsonSchemaFormat): TagFormat {
  return {
    type: 'tag',
    begin: toolTagBegin(name),
    content: {
      type: 'sequence',
      elements: [{ type: 'regex', pattern: '\\d+' }, { type: 'const_string', value: ARGUMENT_BEGIN }, schema],
    },
    end: CALL_END,
  };
}

function xgrammarKimiFormat(tools: readonly ChatTool[] | undefined, toolChoice: ToolChoice | undefined | null) {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags = fns.map((t) =>
    kimiToolTag(t.function.name, {
      type: 'json_schema',
      json_schema: xgrammarParameters(t),
      style: 'json',
      any_order: false,
    }),
  );
  const calls = () => ({
    type: 'tags_with_separator' as const,
    tags,
    separator: '',
    at_least_one: true,
    stop_after_first: false,
  });
  let format: StructuralTagFormat;
  if (choice === 'auto') {
    format =
      tags.length === 0
        ? { type: 'any_text', excludes: [...THINK_EXCLUDES] }
        : {
            type: 'triggered_tags',
            triggers: [SECTION_BEGIN],
            tags: [{ type: 'tag', begin: SECTION_BEGIN, content: calls(), end: SECTION_END }],
            at_least_one: false,
            stop_after_first: false,
            // A bare call outside a section is excluded too: the section is the only way in.
            excludes: [...THINK_EXCLUDES, CALL_BEGIN],
          };
  } else if (choice === 'forced') {
    format = {
      type: 'sequence',
      elements: [{ type: 'const_string', value: SECTION_BEGIN }, tags[0] as TagFormat, { type: 'const_string', value: SECTION_END }],
    };
  } else {
    format = {
      type: 'sequence',
      elements: [{ type: 'const_string', value: SECTION_BEGIN }, calls(), { type: 'const_string', value: SECTION_END }],
    };
  }
  return format;
}

function pr36891Format(tools: readonly ChatTool[] | undefined, toolChoice: ToolChoice | undefined | null) {
  if (toolChoice !== undefined && toolChoice !== null && toolChoice !== 'auto') {
    // The PR left required / named to vLLM's plain JSON-schema path, which does not produce Kimi markup.
    throw new StructuralTagError(`PR 36891 builds a tag for tool_choice "auto" only, not ${JSON.stringify(toolChoice)}.`);
  }
  const { fns } = normalizeToolChoice(tools, toolChoice);
  if (fns.length === 0) throw new StructuralTagError('PR 36891 builds no tag for a request without tools.');
  const format: StructuralTagFormat = {
    type: 'triggered_tags',
    triggers: [CALL_BEGIN],
    tags: fns.map((t) =>
      kimiToolTag(t.function.name, {
        type: 'json_schema',
        // Toolscope's choice (the PR text does not show it): an empty object schema for tools without one.
        json_schema: t.function.parameters ?? { type: 'object', properties: {} },
        style: 'json',
      }),
    ),
    at_least_one: false,
    stop_after_first: false,
    excludes: [...THINK_EXCLUDES],
  };
  return format;
}

/**
 * The Kimi K2 structural tag for a request's tools and tool_choice. Throws StructuralTagError where xgrammar
 * raises (named tool missing, `required` without tools) and for requests the PR-36891 shape does not cover.
 */
export function buildKimiStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: StructuralTagOptions = {},
): StructuralTag {
  const shape = options.shape ?? 'xgrammar-kimi';
  const format = shape === 'pr36891' ? pr36891Format(tools, toolChoice) : xgrammarKimiFormat(tools, toolChoice);
  return { type: 'structural_tag', format };
}

/** The builder as a function of the request, the form replay takes (`StructuralTagBuilder`, src/net/replay/guidedRequest.ts). */
export function structuralTagBuilder(
  options: StructuralTagOptions = {},
): (request: Pick<ChatRequest, 'tools' | 'tool_choice'>) => Record<string, unknown> {
  return (request) => ({ ...buildKimiStructuralTag(request.tools, request.tool_choice, options) });
}
