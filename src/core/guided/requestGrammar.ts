/**
 * Which grammar a request to the embedded endpoint asks for, the ways real engines are asked
 * (docs/guided-decoding.md): its own structural tag in `structured_outputs.structural_tag` (vLLM) or
 * `response_format: {type: "structural_tag"}` (SGLang, older vLLM), or, as current vLLM does, tools marked
 * `strict: true` / `tool_choice` required or named, for which the server builds its model's format's tag itself.
 */
import type { ChatRequest } from '../trace/record.ts';
import type { StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';
import { GuidedRequestError } from './guidedRequestError.ts';

export { GuidedRequestError };

/** A structural tag the client sent with the request, or null; throws on one that is not a tag. */
export function requestedTag(request: ChatRequest): StructuralTag | null {
  const so = request.structured_outputs as { structural_tag?: unknown } | undefined;
  const rf = request.response_format as { type?: unknown; format?: unknown } | undefined;
  let raw: unknown = null;
  if (so && so.structural_tag !== undefined) {
    raw = so.structural_tag;
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw);
      } catch (err) {
        throw new GuidedRequestError(`structured_outputs.structural_tag is not JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } else if (rf && rf.type === 'structural_tag') {
    raw = rf;
  }
  if (raw === null) return null;
  const tag = raw as { type?: unknown; format?: unknown };
  if (!tag || typeof tag !== 'object' || typeof tag.format !== 'object' || tag.format === null) {
    throw new GuidedRequestError('the structural tag has no "format" object (expected {"type": "structural_tag", "format": {…}})');
  }
  return { type: 'structural_tag', format: tag.format } as StructuralTag;
}

/** The server builds its format's structural tag for the request (strict tools, a required or named tool). */
export function buildsFormatTag(request: ChatRequest): boolean {
  if (!request.tools?.length) return false;
  const choice = request.tool_choice;
  if (choice === 'required' || (typeof choice === 'object' && choice !== null)) return true;
  if (choice === 'none') return false;
  return request.tools.some((t) => t.function?.strict === true);
}
