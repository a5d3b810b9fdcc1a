/**
 * The shape most of xgrammar's built-in tags share for a list of call tags: free text that a trigger leaves for a
 * call (`auto`), calls back to back with a separator and nothing else (`required`), one call (a named tool), and text
 * alone without tools. Formats whose calls sit in a section (Kimi K2, DeepSeek-V3.1) or in messages (Harmony) build
 * their own around it.
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import type { JsonSchemaFormat, StructuralTag, StructuralTagFormat, TagFormat } from './structuralTagFormat.ts';
import { normalizeToolChoice, xgrammarParameters, type SimplifiedChoice } from './toolChoice.ts';

/**
 * A tool's arguments as xgrammar's built-ins constrain them: its schema as JSON (or in an XML style: Qwen3-Coder's, GLM's),
 * properties in declared order.
 */
export function argumentsFormat(tool: ChatTool, style = 'json'): JsonSchemaFormat {
  return { type: 'json_schema', json_schema: xgrammarParameters(tool), style, any_order: false };
}

export interface CallListShape {
  /** What starts a call in free text (`auto`). */
  trigger: string;
  /** Between calls when several are required. */
  separator: string;
  /** Strings free text may not hold (xgrammar's think tags). */
  excludes: readonly string[];
}

export function callListFormat(choice: SimplifiedChoice, tags: TagFormat[], shape: CallListShape): StructuralTagFormat {
  if (choice === 'forced') return tags[0] as TagFormat;
  if (choice === 'required')
    return { type: 'tags_with_separator', tags, separator: shape.separator, at_least_one: true, stop_after_first: false };
  if (tags.length === 0) return { type: 'any_text', excludes: [...shape.excludes] };
  return {
    type: 'triggered_tags',
    triggers: [shape.trigger],
    tags,
    at_least_one: false,
    stop_after_first: false,
    excludes: [...shape.excludes],
  };
}

/**
 * A whole tag of that shape for a request: its tools (as xgrammar normalises the choice) as call tags in a call list,
 * after `prefix` when there is one (a reasoning block). Throws StructuralTagError where xgrammar raises.
 */
export function callListTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  callTag: (tool: ChatTool) => TagFormat,
  shape: CallListShape,
  prefix: StructuralTagFormat | null = null,
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const format = callListFormat(choice, fns.map(callTag), shape);
  return { type: 'structural_tag', format: prefix ? { type: 'sequence', elements: [prefix, format] } : format };
}
