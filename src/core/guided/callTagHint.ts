/**
 * What the grammar allowed at a refused character, in the words of the tag, for any format: read back from the
 * tag's call tags (a begin that names the tool, JSON-schema arguments, an end). Inside a call's arguments it is the
 * schema fragment there (in JSON, or in the members of an XML style such as `qwen_xml`); inside the begin of a call (past the part every call
 * shares) it is the tool names the begin may still become. A format that declares how its call header reads
 * (`guided.callHeader`, Kimi K2's call ids) has its own words first (whatIf.ts).
 */
import type { JsonObject } from '../trace/record.ts';
import { walkFormats, type StructuralTag, type XmlArgumentStyle } from '../formats/structuralTag/structuralTagFormat.ts';
import { xmlArgumentStyle } from './argumentStyles.ts';
import { jsonPrefixContext } from './jsonPrefixContext.ts';
import { schemaHintAt } from './schemaHint.ts';
import { xmlArgumentHint } from './xmlArgumentHint.ts';

interface CallTag {
  begin: string;
  ends: readonly string[];
  schema: JsonObject | boolean;
  /** An XML style (`qwen_xml`: `<parameter=KEY>` members), not a JSON object; undefined for JSON. */
  xml: XmlArgumentStyle | undefined;
}

/** Tags whose content is the arguments' JSON schema, begin and all. */
function callTags(tag: StructuralTag): CallTag[] {
  const out: CallTag[] = [];
  for (const f of walkFormats(tag.format)) {
    if (f.type === 'tag' && f.content.type === 'json_schema' && f.begin) {
      const ends = Array.isArray(f.end) ? f.end : [f.end];
      out.push({ begin: f.begin, ends, schema: f.content.json_schema, xml: xmlArgumentStyle(f.content.style) });
    }
  }
  return out;
}

export function callTagHint(
  tag: StructuralTag,
  toolNames: readonly string[],
  text: string,
  grammarStart: number,
  offset: number,
): string | undefined {
  const tags = callTags(tag);
  if (tags.length === 0) return undefined;
  // In the arguments: the last call begun before the offset and not yet ended.
  let open: { tag: CallTag; at: number } | null = null;
  for (const t of tags) {
    const at = text.lastIndexOf(t.begin, offset - t.begin.length);
    if (at < grammarStart || (open && at <= open.at)) continue;
    const contentStart = at + t.begin.length;
    if (t.ends.some((e) => e && text.slice(contentStart, offset).includes(e))) continue;
    open = { tag: t, at };
  }
  if (open) {
    const written = text.slice(open.at + open.tag.begin.length, offset);
    return open.tag.xml
      ? xmlArgumentHint(open.tag.xml, open.tag.schema, written)
      : schemaHintAt(open.tag.schema, jsonPrefixContext(written));
  }
  // In a begin: the longest text before the offset that some begin starts with, and what those begins name.
  const longest = Math.min(offset - grammarStart, Math.max(...tags.map((t) => t.begin.length)) - 1);
  for (let length = longest; length > 0; length--) {
    const written = text.slice(offset - length, offset);
    const open = tags.filter((t) => t.begin.length > length && t.begin.startsWith(written));
    if (open.length === 0) continue;
    // A name counts while part of it is still unwritten (`get_` written: get_weather is still open).
    const names = toolNames.filter((n) =>
      open.some((t) => {
        const at = t.begin.indexOf(n, Math.max(0, length - n.length));
        return at >= 0 && at + n.length > length;
      }),
    );
    if (names.length === 0) return undefined;
    // The same words as a declared call header's hint for a tool name (Kimi K2's).
    return `a tool name: ${names.length === 1 ? names[0] : `one of ${names.join(', ')}`}`;
  }
  return undefined;
}
