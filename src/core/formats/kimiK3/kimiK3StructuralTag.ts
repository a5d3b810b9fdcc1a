/**
 * The Kimi K3 structural tag: what vLLM's `get_kimi_k3_structural_tag` builds (vllm/tool_parsers/structural_tag_registry.py
 * @ 017e9f4448b700e85ee16023287b025693c72b9e, `structural_tag_model = "kimi_k3"`), with arguments as its per-argument
 * tags. Its Rust builder (rust/src/parser/src/unified/kimi_k3/structural_tag.rs, same commit) writes the same
 * arguments as one `json_schema` in xgrammar's `kimi_k3_xml` style, or a `<|open|>json type="object"<|sep|>` block;
 * web-xgrammar 0.1.27 has no `kimi_k3_xml` style, and the per-argument tags are that style's language written with the
 * formats it has (docs/formats/kimi-k3.md):
 * - the response channel first: any text (its open tag included: the instruct prompt may hold it) up to
 *   `<|close|>response<|sep|>`;
 * - then the tools channel — optional under `auto`, required otherwise, one tool's under a named choice — holding
 *   calls `<|open|>call tool="NAME" index="DIGITS"<|sep|>` + argument tags + `<|close|>call<|sep|>`;
 * - an argument tag per property: `<|open|>argument key="KEY" type="TYPE"<|sep|>` (integer written `number`), a
 *   string as raw text up to the tag's end (an enum as its values), any other type JSON by the property's schema;
 *   a property whose type is missing or a union takes any attributes and raw text; at least one argument when the
 *   schema requires any, in any order, repeats allowed (as vLLM's).
 * The message close and `<|end_of_msg|>` end the turn (`stops`): nothing after them is fed.
 *
 * A thinking completion (the prompt ends with `<|open|>think<|sep|>`) starts inside the think channel: its shape
 * (`vllm-kimi_k3-thinking`, chosen by the completion's `<|close|>think<|sep|>`) puts the think prefix of xgrammar's
 * `kimi_k3` tag first (python/xgrammar/builtin_structural_tag.py @ mlc-ai/xgrammar@04597e925c359d9d7815d95349c560a993b048bb
 * with `reasoning=True`; vLLM's Rust builder the same): any text up to `<|close|>think<|sep|>`, then the response
 * channel's open tag the model writes itself. xgrammar excludes `<|open|>` and `<|close|>` from that text; web-xgrammar
 * 0.1.27 takes no excludes inside a tag, so here it runs to the first `<|close|>think<|sep|>`, where vLLM's reasoning
 * parser ends it too.
 */
import type { ChatTool, JsonObject, JsonValue, ToolChoice } from '../../trace/record.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat } from '../structuralTag/structuralTagFormat.ts';
import { normalizeToolChoice, xgrammarParameters } from '../structuralTag/toolChoice.ts';
import type { GuidedTagOptions } from '../toolCallFormat.ts';
import {
  ARGUMENT_CLOSE,
  ARGUMENT_OPEN,
  CALL_CLOSE,
  CALL_OPEN,
  escapeAttribute,
  RESPONSE_CLOSE,
  RESPONSE_OPEN,
  SEP,
  THINK_CLOSE,
  THINK_OPEN,
  TOOLS_CLOSE,
  TOOLS_OPEN,
} from './kimiK3Markers.ts';

/** Instruct (the completion starts in the response channel), the default; thinking (it starts in the think channel). */
export const KIMI_K3_TAG_SHAPES: readonly string[] = ['vllm-kimi_k3', 'vllm-kimi_k3-thinking'];

/** A completion that closes (or opens) the think channel is a thinking one. */
export function kimiK3ShapeOf(text: string): string | undefined {
  return text.includes(THINK_CLOSE) || text.trimStart().startsWith(THINK_OPEN) ? 'vllm-kimi_k3-thinking' : undefined;
}

/** JSON-schema type → the `type` attribute (the renderer's `_xtml_type`: integer is number). */
const XTML_TYPE: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
  object: 'object',
  array: 'array',
};

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
// vLLM excludes <|close|> from a raw value; web-xgrammar 0.1.27 takes excludes only on free text outside tags, so here
// a raw value runs to its tag's end (the first <|close|>argument<|sep|>), as vLLM's parser reads it.
const RAW_TEXT: StructuralTagFormat = { type: 'any_text' };
const regexEscape = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/gu, '\\$&');

/** A key/type-agnostic argument: any attributes, raw value (vLLM's `_k3_permissive_argument_tag`). */
function permissiveArgument(): TagFormat {
  return {
    type: 'tag',
    begin: `${ARGUMENT_OPEN} `,
    content: { type: 'sequence', elements: [{ type: 'regex', pattern: `[^<]*${regexEscape(SEP)}` }, RAW_TEXT] },
    end: ARGUMENT_CLOSE,
  };
}

function argumentTag(key: string, schema: JsonValue | undefined, defs: JsonObject): TagFormat {
  const prop = isObject(schema) ? schema : {};
  const type = typeof prop.type === 'string' ? XTML_TYPE[prop.type] : undefined;
  if (type === undefined) return permissiveArgument();
  const begin = `${ARGUMENT_OPEN} key="${escapeAttribute(key)}" type="${type}"${SEP}`;
  let content: StructuralTagFormat;
  if (type === 'string') {
    const values = Array.isArray(prop.enum) ? prop.enum : typeof prop.const === 'string' ? [prop.const] : null;
    content =
      values && values.length > 0 && values.length <= 256 && values.every((v) => typeof v === 'string' && !v.includes('<|'))
        ? { type: 'regex', pattern: (values as string[]).map(regexEscape).join('|') }
        : RAW_TEXT;
  } else {
    content = { type: 'json_schema', json_schema: { ...prop, ...defs }, style: 'json', any_order: false };
  }
  return { type: 'tag', begin, content, end: ARGUMENT_CLOSE };
}

/** The argument tags of a tool's schema: at least one when it requires any (vLLM's `_k3_arguments_block`). */
function argumentsBlock(parameters: JsonObject | boolean): StructuralTagFormat {
  const props = isObject(parameters) && isObject(parameters.properties) ? Object.entries(parameters.properties) : [];
  if (!isObject(parameters) || props.length === 0)
    return { type: 'tags_with_separator', tags: [permissiveArgument()], separator: '', at_least_one: false, stop_after_first: false };
  const defs: JsonObject = Object.fromEntries(
    ['$defs', 'definitions'].filter((k) => isObject(parameters[k])).map((k) => [k, parameters[k] as JsonValue]),
  );
  const required = Array.isArray(parameters.required) && parameters.required.length > 0;
  return {
    type: 'tags_with_separator',
    tags: props.map(([key, schema]) => argumentTag(key, schema, defs)),
    separator: '',
    at_least_one: required,
    stop_after_first: false,
  };
}

function callTag(tool: ChatTool): TagFormat {
  return {
    type: 'tag',
    begin: `${CALL_OPEN} tool="${escapeAttribute(tool.function.name)}" index="`,
    content: {
      type: 'sequence',
      elements: [
        { type: 'regex', pattern: '[0-9]+' },
        { type: 'const_string', value: `"${SEP}` },
        argumentsBlock(xgrammarParameters(tool)),
      ],
    },
    end: CALL_CLOSE,
  };
}

/** The K3 tag for a request's tools and tool_choice; throws StructuralTagError where vLLM's builder raises. */
export function buildKimiK3StructuralTag(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: GuidedTagOptions = {},
): StructuralTag {
  const { fns, choice } = normalizeToolChoice(tools, toolChoice);
  const thinking = options.shape === 'vllm-kimi_k3-thinking';
  const think: TagFormat = { type: 'tag', begin: '', content: RAW_TEXT, end: THINK_CLOSE };
  const response: TagFormat = { type: 'tag', begin: thinking ? RESPONSE_OPEN : '', content: RAW_TEXT, end: RESPONSE_CLOSE };
  const channels = (...rest: StructuralTagFormat[]): StructuralTag => ({
    type: 'structural_tag',
    format: thinking
      ? { type: 'sequence', elements: [think, response, ...rest] }
      : rest.length
        ? { type: 'sequence', elements: [response, ...rest] }
        : response,
  });
  if (fns.length === 0) return channels();
  const channel: TagFormat = {
    type: 'tag',
    begin: TOOLS_OPEN,
    content: { type: 'tags_with_separator', tags: fns.map(callTag), separator: '', at_least_one: true, stop_after_first: false },
    end: TOOLS_CLOSE,
  };
  // Optional under auto. vLLM's tag allows one channel; a list that stops after its first tag gets no separator in
  // web-xgrammar 0.1.27's printout, which the lowering needs, so a second channel may follow the first here.
  const tools_: StructuralTagFormat =
    choice === 'auto'
      ? { type: 'tags_with_separator', tags: [channel], separator: '', at_least_one: false, stop_after_first: false }
      : channel;
  return channels(tools_);
}
