/** What a built tag allows, read back from the tag itself: tool names with their schemas, and excludes. */
import type { JsonObject } from '../trace/record.ts';
import { walkFormats, type StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';
import { formatNames, getFormat } from '../formats/registry.ts';

export interface TagTool {
  name: string;
  schema: JsonObject | boolean;
}

/** Reads the tool a call tag is for from the tag's begin (`CallHeaderReading.toolOfTag`); undefined for other tags. */
export type TagToolReader = (begin: string) => string | undefined;

/**
 * `tagTools` by tag and reader, read once: the what-if's words for a call refused in its header or arguments read the
 * tools for every such record, and walking the tag was over a third of that (a compiled grammar's tag is one object,
 * never changed).
 */
const toolsByTag = new WeakMap<StructuralTag, Map<TagToolReader, readonly TagTool[]>>();

/** Tools in tag order (a name once), from the tags whose begin `toolOfTag` reads a tool from. */
export function tagTools(tag: StructuralTag, toolOfTag: TagToolReader): readonly TagTool[] {
  let byReader = toolsByTag.get(tag);
  if (!byReader) toolsByTag.set(tag, (byReader = new Map()));
  let tools = byReader.get(toolOfTag);
  if (!tools) byReader.set(toolOfTag, (tools = readTagTools(tag, toolOfTag)));
  return tools;
}

function readTagTools(tag: StructuralTag, toolOfTag: TagToolReader): TagTool[] {
  const out = new Map<string, TagTool>();
  for (const f of walkFormats(tag.format)) {
    if (f.type !== 'tag') continue;
    const name = toolOfTag(f.begin);
    if (name === undefined) continue;
    const schema = f.content.type === 'sequence' ? f.content.elements.find((e) => e.type === 'json_schema') : undefined;
    if (!out.has(name)) out.set(name, { name, schema: schema?.type === 'json_schema' ? schema.json_schema : true });
  }
  return [...out.values()];
}

/**
 * The tool a call tag of unknown origin is for (a request's own tag): read by the first registered format whose call
 * header reads one from the tag's begin.
 */
export function toolOfAnyTag(begin: string): string | undefined {
  for (const name of formatNames()) {
    const tool = getFormat(name).guided?.callHeader?.toolOfTag(begin);
    if (tool !== undefined) return tool;
  }
  return undefined;
}

/** Every string the tag excludes from free text. */
export function tagExcludes(tag: StructuralTag): Set<string> {
  const out = new Set<string>();
  for (const f of walkFormats(tag.format)) {
    if ((f.type === 'triggered_tags' || f.type === 'any_text') && f.excludes) for (const e of f.excludes) out.add(e);
  }
  return out;
}
