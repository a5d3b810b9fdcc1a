/** What a built Kimi tag allows, read back from the tag itself: tool names with their schemas, and excludes. */
import type { JsonObject } from '../trace/record.ts';
import { CALL_BEGIN } from '../formats/kimiK2/kimiK2Markers.ts';
import { walkFormats, type StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';

export interface TagTool {
  name: string;
  schema: JsonObject | boolean;
}

/** Tools in tag order (a name once), from tags beginning `<|tool_call_begin|>functions.{name}:`. */
export function tagTools(tag: StructuralTag): TagTool[] {
  const out = new Map<string, TagTool>();
  for (const f of walkFormats(tag.format)) {
    if (f.type !== 'tag' || !f.begin.startsWith(CALL_BEGIN)) continue;
    const name = f.begin
      .slice(CALL_BEGIN.length)
      .replace(/^functions\./, '')
      .replace(/:$/, '');
    const schema = f.content.type === 'sequence' ? f.content.elements.find((e) => e.type === 'json_schema') : undefined;
    if (!out.has(name)) out.set(name, { name, schema: schema?.type === 'json_schema' ? schema.json_schema : true });
  }
  return [...out.values()];
}

/** Every string the tag excludes from free text. */
export function tagExcludes(tag: StructuralTag): Set<string> {
  const out = new Set<string>();
  for (const f of walkFormats(tag.format)) {
    if ((f.type === 'triggered_tags' || f.type === 'any_text') && f.excludes) for (const e of f.excludes) out.add(e);
  }
  return out;
}
