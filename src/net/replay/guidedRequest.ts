/**
 * What "guided decoding on" means on the wire, per engine (docs/guided-decoding.md):
 * - current vLLM: tools marked `strict: true` (the server builds its model's format's tag itself), plus our own tag
 *   in `structured_outputs.structural_tag` when the user chose a tag shape (`--tag-shape`);
 * - SGLang and older vLLM: `response_format: {type: "structural_tag", …}` with our tag (the record's format's unless
 *   the user chose one);
 * - hosted OpenAI-compatible APIs: `strict: true` on every tool.
 * "Off" is the plain request: no `strict`, no tag.
 */
import type { ChatRequest, ChatTool } from '../../core/trace/record.ts';
import type { Engine } from './endpoint.ts';

/** Builds the structural tag for a request: a format's own builder (`ToolCallFormat.guided`), in the shape asked for. */
export type StructuralTagBuilder = (request: ChatRequest) => Record<string, unknown>;

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
  buildTag: StructuralTagBuilder | undefined,
  recordTag: StructuralTagBuilder,
): ChatRequest {
  const out: ChatRequest = { ...request };
  delete out.structured_outputs;
  if ((out.response_format as { type?: string } | undefined)?.type === 'structural_tag') delete out.response_format;
  out.tools = withStrict(request.tools, on && engine !== 'sglang');
  if (!out.tools) delete out.tools;
  if (!on || !request.tools?.length) return out;
  if (engine === 'vllm' && buildTag) out.structured_outputs = { structural_tag: JSON.stringify(buildTag(request)) };
  if (engine === 'sglang') {
    out.response_format = { type: 'structural_tag', ...(buildTag ?? recordTag)(request) };
  }
  return out;
}
