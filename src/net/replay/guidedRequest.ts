/**
 * What "guided decoding on" means on the wire, per engine (docs/guided-decoding.md):
 * - current vLLM: tools marked `strict: true` (the server builds xgrammar's Kimi tag itself), plus our own tag
 *   in `structured_outputs.structural_tag` when the user chose a tag shape (`--tag-shape`);
 * - SGLang and older vLLM: `response_format: {type: "structural_tag", …}` with our tag;
 * - hosted OpenAI-compatible APIs: `strict: true` on every tool.
 * "Off" is the plain request: no `strict`, no tag.
 */
import type { ChatRequest, ChatTool } from '../../core/trace/record.ts';
import type { Engine } from './endpoint.ts';
import { structuralTagBuilder } from '../../core/formats/kimiK2/kimiK2StructuralTag.ts';

/** Builds the structural tag for a request: src/core/guided's one builder, in the shape the user chose. */
export type StructuralTagBuilder = (request: ChatRequest) => Record<string, unknown>;

/** xgrammar's built-in Kimi shape: what current vLLM builds itself. */
export const defaultTagBuilder: StructuralTagBuilder = structuralTagBuilder();

function withStrict(tools: ChatTool[] | undefined, strict: boolean): ChatTool[] | undefined {
  return tools?.map((t) => {
    const fn = { ...t.function };
    if (strict) fn.strict = true;
    else delete fn.strict;
    return { ...t, function: fn };
  });
}

/**
 * `buildTag`: the tag the user chose (`--tag-shape`), also sent to vLLM beside strict tools; `recordTag`: the record's
 * format's own tag, sent where the engine needs one (SGLang) and none was chosen.
 */
export function guidedRequest(
  request: ChatRequest,
  engine: Engine,
  on: boolean,
  buildTag?: StructuralTagBuilder,
  recordTag?: StructuralTagBuilder,
): ChatRequest {
  const out: ChatRequest = { ...request };
  delete out.structured_outputs;
  if ((out.response_format as { type?: string } | undefined)?.type === 'structural_tag') delete out.response_format;
  out.tools = withStrict(request.tools, on && engine !== 'sglang');
  if (!out.tools) delete out.tools;
  if (!on || !request.tools?.length) return out;
  if (engine === 'vllm' && buildTag) out.structured_outputs = { structural_tag: JSON.stringify(buildTag(request)) };
  if (engine === 'sglang') {
    out.response_format = { type: 'structural_tag', ...(buildTag ?? recordTag ?? defaultTagBuilder)(request) };
  }
  return out;
}
