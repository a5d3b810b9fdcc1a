/**
 * Where xgrammar 0.2.3's `qwen_xml` arguments grammar (and Toolscope's lowering of the other XML styles alike) lets through what the tool's schema forbids, beyond the JSON
 * keyword gaps (unenforcedKeywords.ts): a top-level string with a length bound and no pattern or format is written as
 * `[^]{m,n}` — any characters, `</parameter>` included — so with no upper bound its value may run on to the last
 * `</parameter>` of the call, and nothing after it is enforced (xmlArgumentLowering.ts mirrors this).
 */
import type { JsonValue } from '../trace/record.ts';
import type { XmlArgumentStyle } from '../formats/structuralTag/structuralTagFormat.ts';

type Obj = { [key: string]: JsonValue };
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parameters whose value may swallow the rest of the call, each as `keyword on name (why)`. */
export function xmlArgumentUnenforced(style: XmlArgumentStyle, parameters: unknown): string[] {
  if (!isObject(parameters) || !isObject(parameters.properties)) return [];
  const out: string[] = [];
  for (const [name, s] of Object.entries(parameters.properties)) {
    if (!isObject(s) || s.type !== 'string' || 'pattern' in s || 'format' in s || 'enum' in s || 'const' in s) continue;
    // Only a lower bound: `[^]{m,}` has no end of its own (minLength 0 alone stays plain text up to the value end).
    if (s.maxLength !== undefined || typeof s.minLength !== 'number' || s.minLength <= 0) continue;
    out.push(
      `minLength on ${name} (xgrammar's ${style.style} writes it as any characters, ${style.valueEnd} included: the parameters after it are not enforced)`,
    );
  }
  return out;
}
