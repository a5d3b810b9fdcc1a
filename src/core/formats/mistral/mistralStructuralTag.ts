/**
 * The Mistral structural tag: what SGLang applies to a `mistral` request, there being no xgrammar built-in for it.
 * SGLang's `MistralDetector.structure_info` (python/sglang/srt/function_call/mistral_detector.py @
 * a343daaf647ea0c8c4a05cd2b5cfa0afc9e303f8) gives each tool a call of the pre-v11 layout, in that exact spelling
 * (no space after `"name":` nor after `"arguments":`, one after the comma), one call per list:
 * `[TOOL_CALLS] [{"name":"<tool>", "arguments":<arguments>}]`, triggered by `[TOOL_CALLS]`.
 * `FunctionCallParser.get_legacy_structural_tag` (function_call_parser.py @ 00828e568a0030e197c825dfa20f5a180b143d04)
 * turns those into a legacy tag (structures + triggers) with `at_least_one` for a required or named tool_choice:
 * - auto: free text; `[TOOL_CALLS]` triggers a call of a declared tool, as many as the model writes;
 * - required / a named tool: the same, at least one call (a named tool: its call only, as xgrammar normalises it).
 * Arguments are the tool's schema as Toolscope's other tags have it (SGLang sends the schema for `strict` tools and
 * `{}` for the others; Toolscope's what-if is the strict case). Not modelled: vLLM's grammar for Mistral
 * (mistral-common's Lark grammar, docs/formats/mistral.md).
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import type { FormatCallWriter } from '../callWriter.ts';
import { argumentsFormat } from '../structuralTag/callTags.ts';
import type { StructuralTag, TagFormat } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice } from '../structuralTag/toolChoice.ts';
import { TOOL_CALLS } from './mistralMarkers.ts';

export const MISTRAL_TAG_SHAPES: readonly string[] = ['sglang-mistral'];

const CALL_BEGIN_PREFIX = `${TOOL_CALLS} [{"name":"`;
const ARGUMENTS_PREFIX = '", "arguments":';
const CALL_END = '}]';

function callTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${CALL_BEGIN_PREFIX}${tool.function.name}${ARGUMENTS_PREFIX}`,
    content: argumentsFormat(tool),
    end: CALL_END,
  };
}

/** SGLang's Mistral tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildMistralStructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  if (fns.length === 0) return { type: 'structural_tag', format: { type: 'any_text' } };
  return {
    type: 'structural_tag',
    format: {
      type: 'triggered_tags',
      triggers: [TOOL_CALLS],
      tags: fns.map(callTag),
      at_least_one: choice !== 'auto',
      stop_after_first: false,
    },
  };
}

/** A call as the tag spells it: guided decoding writes the model's calls again so (a v11 model's too). */
export const mistralTagCallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: '',
  separator: '',
  close: '',
  head: (name) => `${CALL_BEGIN_PREFIX}${name}${ARGUMENTS_PREFIX}`,
  tail: CALL_END,
};
