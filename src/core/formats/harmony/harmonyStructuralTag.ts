/**
 * The gpt-oss Harmony structural tag: what xgrammar 0.2.3's built-in `harmony` tag (python/xgrammar/
 * builtin_structural_tag.py, get_harmony_structural_tag) builds for function tools. The output is a run of messages
 * joined by `<|start|>assistant`, each one of:
 * - a call, in any of the three headers xgrammar accepts — `<|channel|>commentary to=functions.NAME<|constrain|>json<|message|>`
 *   (no space before `<|constrain|>`), ` to=functions.NAME<|channel|>commentary <|constrain|>json<|message|>` and
 *   ` to=functions.NAME<|channel|>commentary json<|message|>` — then the JSON arguments and `<|call|>`;
 * - (auto) the final answer `<|channel|>final<|message|>` … `<|end|>` or `<|return|>`;
 * - (with reasoning) the analysis channel `<|channel|>analysis<|message|>` … `<|end|>` or `<|return|>`.
 * Harmony's reasoning is a message of its own, so `reasoning` adds a tag rather than a prefix: the what-if, which
 * feeds what follows the reasoning, is still judged against the tag without it.
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import { argumentsFormat } from '../structuralTag/callTags.ts';
import type { StructuralTag, TagFormat } from '../structuralTag/structuralTagFormat.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import { CALL, CHANNEL, CONSTRAIN, END, MESSAGE, RETURN, START } from './harmonyMarkers.ts';

export const HARMONY_TAG_SHAPES: readonly string[] = ['xgrammar-harmony'];

const FINAL_END = [END, RETURN];

function callTags(tool: ChatTool): TagFormat[] {
  const content = argumentsFormat(tool);
  const name = tool.function.name;
  return [
    { type: 'tag', begin: `${CHANNEL}commentary to=functions.${name}${CONSTRAIN}json${MESSAGE}`, content, end: CALL },
    { type: 'tag', begin: ` to=functions.${name}${CHANNEL}commentary ${CONSTRAIN}json${MESSAGE}`, content, end: CALL },
    { type: 'tag', begin: ` to=functions.${name}${CHANNEL}commentary json${MESSAGE}`, content, end: CALL },
  ];
}

/** The Harmony tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildHarmonyStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const tags: TagFormat[] = [];
  if (choice === 'forced') tags.push(...callTags(fns[0] as ChatTool));
  else {
    for (const tool of fns) tags.push(...callTags(tool));
    if (choice === 'auto')
      tags.push({ type: 'tag', begin: `${CHANNEL}final${MESSAGE}`, content: { type: 'any_text', excludes: [] }, end: [...FINAL_END] });
  }
  if (options.reasoning)
    tags.push({ type: 'tag', begin: `${CHANNEL}analysis${MESSAGE}`, content: { type: 'any_text', excludes: [] }, end: [...FINAL_END] });
  return {
    type: 'structural_tag',
    format: { type: 'tags_with_separator', tags, separator: `${START}assistant`, at_least_one: false, stop_after_first: false },
  };
}
