/**
 * The Llama structural tag: what xgrammar 0.2.3's built-in `llama` tag (`get_model_structural_tag("llama", …)`,
 * python/xgrammar/builtin_structural_tag.py) builds, which vLLM's llama3_json / llama4_json parsers name as their
 * `structural_tag_model`. A call is the bare object `{"name": "<tool>", "parameters": <arguments>}` — exactly that
 * spelling, one space after each colon and comma; no `<|python_tag|>` (free text before the trigger may hold it).
 * - auto: free text; `{"name": ` triggers a call of a declared tool (think tags excluded from the text);
 * - required: one or more calls back to back, nothing else;
 * - a named tool: exactly one call of it.
 * Llama has no reasoning part: the `reasoning` option changes nothing, as in xgrammar.
 */
import type { ChatTool, ToolChoice } from '../../trace/record.ts';
import { argumentsFormat, callListTag } from '../structuralTag/callTags.ts';
import type { StructuralTag, TagFormat } from '../structuralTag/structuralTagFormat.ts';

export const LLAMA_TAG_SHAPES: readonly string[] = ['xgrammar-llama'];

/** What opens a call in the tag, up to the tool's name. */
export const CALL_TRIGGER = '{"name": ';
const NAME_PREFIX = '{"name": "';
const PARAMETERS_PREFIX = '", "parameters": ';
/** xgrammar's `THINK_EXCLUDE_TOKENS` for this tag (`exclude_special_tokens`, on by default in vLLM). */
const THINK_EXCLUDES = ['<think>', '</think>'];

function callTag(tool: ChatTool): TagFormat {
  return { type: 'tag', begin: `${NAME_PREFIX}${tool.function.name}${PARAMETERS_PREFIX}`, content: argumentsFormat(tool), end: '}' };
}

/** The Llama tag for a request's tools and tool_choice; throws StructuralTagError where xgrammar raises. */
export function buildLlamaStructuralTag(tools: readonly ChatTool[] | undefined, toolChoice: ToolChoice | undefined | null): StructuralTag {
  return callListTag(tools, toolChoice, callTag, { trigger: CALL_TRIGGER, separator: '', excludes: THINK_EXCLUDES });
}
