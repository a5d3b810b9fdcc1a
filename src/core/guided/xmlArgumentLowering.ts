/**
 * xgrammar 0.2's `json_schema` in an XML argument style (`style: "qwen_xml"`, Qwen3-Coder's arguments; `glm_xml`,
 * GLM's), rebuilt for web-xgrammar 0.1.27. That build has none of these styles (its own `qwen_xml_parameter` format
 * is the older converter: strings without `<` or line breaks, enums in JSON quotes), so the XML layer is written here
 * as EBNF, the way xgrammar 0.2.3's XMLToolCallingConverter (cpp/json_schema_converter_ext.cc) writes `qwen_xml`,
 * with any_whitespace and strict mode as its structural tags compile it. Every style is lowered alike, from the tags
 * its format declares (`XmlArgumentStyle`): `qwen_xml` is the converter read; the others (`glm_xml`) are the same
 * layer with their own tags, not a reading of xgrammar's converter for them.
 * - the top-level object is `<parameter=KEY>` VALUE `</parameter>` members (GLM: `<arg_key>KEY</arg_key>`, optional
 *   whitespace, `<arg_value>` VALUE `</arg_value>`), whitespace around and between them,
 *   properties in declared order (required ones present, no others unless additionalProperties allows names
 *   `[a-zA-Z_][a-zA-Z0-9_]*` after the declared ones), or in any order with `any_order`;
 * - a plain string is raw text up to the first `</parameter>`; an enum or const is its raw text; a string with a
 *   pattern or a known format is that regex unquoted, one with a length bound any characters that many times;
 * - any other value (numbers with their bounds, booleans, null, arrays, objects with properties) is JSON, compiled by
 *   web-xgrammar's own JSON-schema converter; a bare `{"type": "object"}` is nested XML parameters, as in xgrammar.
 *
 * How: the format becomes a `sequence` web-xgrammar can build — a sentinel string, then one `json_schema` or `regex`
 * per value that needs one — and after its EBNF printout the sequence's rule is replaced by the XML layer, which
 * refers to the values by the rule names the printout gave them (patchQwenXml).
 */
import type { JsonObject, JsonValue } from '../trace/record.ts';
import type {
  JsonSchemaFormat,
  StructuralTag,
  StructuralTagFormat,
  TagFormat,
  XmlArgumentStyle,
} from '../formats/structuralTag/structuralTagFormat.ts';
import { xmlArgumentStyle } from './argumentStyles.ts';
import { ebnfString, type EbnfRule } from './ebnfRules.ts';
import { UnsupportedSchemaError } from './schemaSupport.ts';
import { stringFormatRegex } from './stringFormatRegex.ts';
import { lowerXmlElements } from './xmlElementLowering.ts';
import { count, isObject, schemaCacheKey, WS, XmlArgumentLoweringError, type Schema, type XmlLoweringPlan } from './xmlLoweringParts.ts';

/** What the EBNF patch needs (the shared plan of both XML lowerings). */
export type XmlArgumentPlan = XmlLoweringPlan;
export { XmlArgumentLoweringError };

/** The sentinel of the n-th XML-style format of a tag; control characters keep it out of real text. */
export function xmlArgumentSentinel(n: number): string {
  return `\u0001QXML${n}\u0001`;
}

/**
 * The sequence web-xgrammar builds in place of an XML-style json_schema, and the plan that puts the XML layer back.
 * `n` numbers the XML-style formats of one tag (rule names and sentinel).
 */
export function lowerXmlArguments(
  format: JsonSchemaFormat,
  n: number,
  style: XmlArgumentStyle,
): { format: StructuralTagFormat; plan: XmlArgumentPlan } {
  const CLOSE = `${WS} ${ebnfString(style.valueEnd)}`;
  const valueOpen = `${style.spaceBeforeValue ? ` ${WS}` : ''}${style.valueBegin ? ` ${ebnfString(style.valueBegin)}` : ''}`;
  /** A member's opening for a declared name, and for any name (`name` a rule). */
  const suffix = style.keySuffixes?.length ? ` (${style.keySuffixes.map(ebnfString).join(' | ')})` : '';
  const memberOpen = (key: string) => `${ebnfString(`${style.keyBegin}${key}${style.keyEnd}`)}${suffix}${valueOpen}`;
  const anyMemberOpen = (name: string) => `${ebnfString(style.keyBegin)} ${name} ${ebnfString(style.keyEnd)}${suffix}${valueOpen}`;
  const root = format.json_schema;
  const prefix = `toolscope_qx${n}`;
  const values: StructuralTagFormat[] = [];
  const rules: EbnfRule[] = [];
  const ruleNames = new Set<string>();
  const addRule = (name: string, body: string): string => {
    if (!ruleNames.has(name)) {
      ruleNames.add(name);
      rules.push({ name, body });
    }
    return name;
  };
  const defs = isObject(root)
    ? Object.fromEntries(['$defs', 'definitions'].filter((k) => k in root).map((k) => [k, root[k] as JsonValue]))
    : {};

  /** A value compiled by web-xgrammar (JSON or regex): the name the XML layer calls it. */
  const valueRule = (f: StructuralTagFormat): string => {
    values.push(f);
    return `${prefix}_v${values.length - 1}`;
  };
  const json = (schema: Schema): string => {
    const own = isObject(schema) ? { ...defs, ...schema } : schema;
    return valueRule({ type: 'json_schema', json_schema: own as JsonObject | boolean });
  };
  // Raw text up to and including the first value end (xgrammar: a TagDispatch excluding it, then the close).
  const textTail = () =>
    addRule(
      `${prefix}_text`,
      `TagDispatch(\n  stop_eos=false,\n  stop_str=(${ebnfString(style.valueEnd)}),\n  loop_after_dispatch=false\n)`,
    );
  const around = (value: string) => `${WS} ${value} ${CLOSE}`;
  // xml_any: raw text, or a JSON array or object.
  const anyTail = () => addRule(`${prefix}_any`, `${textTail()} | ${around(`(${json({ type: 'array' })} | ${json({ type: 'object' })})`)}`);
  const variableName = () => addRule(`${prefix}_name`, '[a-zA-Z_] [a-zA-Z0-9_]*');
  // xml_object: any parameters, any names.
  const xmlObject = () => {
    const member = `${anyMemberOpen(variableName())} ${anyTail()}`;
    return addRule(`${prefix}_object`, `(${WS} ${member} (${WS} ${member})* ${WS}) | ${WS}`);
  };

  const resolve = (ref: string, seen: ReadonlySet<string>): Schema => {
    if (seen.has(ref)) throw new XmlArgumentLoweringError(style.style, `the $ref ${ref} of a parameter refers to itself`);
    if (!ref.startsWith('#/'))
      throw new XmlArgumentLoweringError(style.style, `the $ref ${ref} of a parameter does not point into the schema's $defs`);
    let at: unknown = root;
    for (const part of ref.slice(2).split('/').filter(Boolean)) at = isObject(at) ? at[part] : undefined;
    if (at === undefined) throw new XmlArgumentLoweringError(style.style, `the $ref ${ref} points to nothing`);
    return at as Schema;
  };

  /** `WS VALUE WS </parameter>` for a parameter's schema, as xgrammar's XML converter writes the value (level 1). */
  const tail = (schema: Schema, seen: ReadonlySet<string> = new Set()): string => {
    if (schema === true) return anyTail();
    if (!isObject(schema)) throw new XmlArgumentLoweringError(style.style, 'a parameter schema must be an object or true');
    const key = schemaCacheKey(schema);
    if (key === '{}') return anyTail();
    if (key === '{"type":"string"}') return textTail();
    if (key === '{"type":"object"}') return around(xmlObject());
    if (typeof schema.$ref === 'string') return tail(resolve(schema.$ref, seen), new Set([...seen, schema.$ref]));
    if ('const' in schema) return around(rawLiteral(schema.const as JsonValue));
    if (Array.isArray(schema.enum)) return around(`(${schema.enum.map(rawLiteral).join(' | ')})`);
    const options = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (options) return `(${options.map((o) => tail(o as Schema, seen)).join(' | ')})`;
    if (Array.isArray(schema.allOf)) return schema.allOf.length === 1 ? tail(schema.allOf[0] as Schema, seen) : anyTail();
    if (Array.isArray(schema.type)) return `(${schema.type.map((t) => tail({ ...schema, type: t }, seen)).join(' | ')})`;
    if (schema.type === 'string') return around(stringValue(schema));
    return around(json(schema));
  };

  /** A string with a pattern, format or length bound, unquoted (GenerateString at the XML level). */
  const stringValue = (schema: JsonObject): string => {
    const formatRegex = typeof schema.format === 'string' ? stringFormatRegex(schema.format) : undefined;
    if (formatRegex !== undefined) return valueRule({ type: 'regex', pattern: formatRegex });
    if (typeof schema.pattern === 'string') return valueRule({ type: 'regex', pattern: schema.pattern });
    const min = count(schema.minLength, 0);
    const max = count(schema.maxLength, -1);
    if (min !== 0 || max !== -1) return `[^]{${min},${max === -1 ? '' : max}}`;
    // A format xgrammar does not know: the XML converter hands the string to the JSON one (quoted).
    return json({ type: 'string' });
  };

  const parameters = (schema: JsonObject): string => {
    if (schema.patternProperties !== undefined || schema.propertyNames !== undefined) {
      throw new XmlArgumentLoweringError(style.style, 'patternProperties and propertyNames on the parameters are not lowered');
    }
    const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    // Strict mode: no other parameters unless additionalProperties (or unevaluatedProperties) says so.
    const extra = [schema.additionalProperties, schema.unevaluatedProperties].find((e) => e !== undefined && e !== false);
    const members = properties.map(([name, s]) => `${memberOpen(name)} ${tail(s as Schema)}`);
    const other = extra === undefined ? null : `${anyMemberOpen(variableName())} ${tail(extra as Schema)}`;
    const min = count(schema.minProperties, 0);
    const max = count(schema.maxProperties, -1);
    if (format.any_order) return anyOrder(members, other, Math.max(min, required.size), max, required.size === 0 && min === 0);
    return inOrder(
      members,
      properties.map(([name]) => required.has(name)),
      other,
      min,
      max,
    );
  };

  /** Any order (GetAnyOrderRuleForProperties): between min and max members of any kind; required ones not enforced. */
  const anyOrder = (members: string[], other: string | null, min: number, max: number, canBeEmpty: boolean): string => {
    const items = [...members, ...(other ? [other] : [])];
    if (items.length === 0 || max === 0) return WS;
    const item = addRule(`${prefix}_item`, items.join(' | '));
    const some = `${WS} ${item} (${WS} ${item}){${Math.max(0, min - 1)},${max === -1 ? '' : max - 1}} ${WS}`;
    return canBeEmpty ? `(${some}) | ${WS}` : some;
  };

  /**
   * Declared order (GetPartialRuleForProperties): each property once, in order, required ones present, then other
   * parameters; between minProperties and maxProperties in all. Every separator is whitespace at this level, so the
   * language is a chain: the rule of (next property, how many so far).
   */
  const inOrder = (members: string[], isRequired: boolean[], other: string | null, min: number, max: number): string => {
    const n = members.length;
    // Counts above `cap` need not be told apart: with no maximum only reaching the minimum matters.
    const cap = max === -1 ? min : max;
    const memo = new Map<string, string | null>();
    const from = (i: number, c: number): string | null => {
      const id = `${i}_${c}`;
      if (memo.has(id)) return memo.get(id) as string | null;
      const alternatives: string[] = [];
      if (i === n) {
        if (other) {
          const lo = Math.max(0, min - c);
          const hi = max === -1 ? '' : String(max - c);
          alternatives.push(`(${other} ${WS}){${lo},${hi}}`);
        } else if (c >= min) alternatives.push('""');
      } else {
        if (!isRequired[i]) {
          const skip = from(i + 1, c);
          if (skip) alternatives.push(skip);
        }
        if (max === -1 || c < max) {
          const take = from(i + 1, Math.min(c + 1, cap));
          if (take) alternatives.push(`${members[i]} ${WS} ${take}`);
        }
      }
      const name = alternatives.length === 0 ? null : addRule(`${prefix}_part_${id}`, alternatives.join(' | '));
      memo.set(id, name);
      return name;
    };
    const start = from(0, 0);
    if (!start) throw new XmlArgumentLoweringError(style.style, 'the parameters allow no value (required properties beyond maxProperties)');
    return `${WS} ${start}`;
  };

  let body: string;
  if (root === true || (isObject(root) && schemaCacheKey(root) === '{}')) body = xmlObject();
  else if (isObject(root) && (root.type === 'object' || (root.type === undefined && isObject(root.properties)))) body = parameters(root);
  else throw new XmlArgumentLoweringError(style.style, 'the parameters schema is not an object');
  const top = addRule(`${prefix}_root`, body);

  const sentinel = xmlArgumentSentinel(n);
  return {
    format: { type: 'sequence', elements: [{ type: 'const_string', value: sentinel }, ...values] },
    plan: { sentinel, rules, root: top, valueNames: values.map((_, i) => `${prefix}_v${i}`) },
  };
}

/** Every XML-style json_schema of a tag lowered (numbered in walk order), and the plans that patch them back. */
export function lowerXmlArgumentFormats(tag: StructuralTag): { tag: StructuralTag; plans: XmlArgumentPlan[] } {
  const plans: XmlArgumentPlan[] = [];
  const lowerTag = (t: TagFormat): TagFormat => ({ ...t, content: lower(t.content) });
  const lower = (f: StructuralTagFormat): StructuralTagFormat => {
    switch (f.type) {
      case 'json_schema': {
        if (f.style === undefined || f.style === 'json') return f;
        const style = xmlArgumentStyle(f.style);
        if (!style) throw new UnsupportedSchemaError(`the argument style ${f.style} is declared by no format Toolscope knows`);
        // An element style (MiniMax-M3's minimax_m3_xml) nests its arguments: its own layer (xmlElementLowering.ts).
        const lowered = style.elements
          ? lowerXmlElements(f, plans.length, style, xmlArgumentSentinel(plans.length))
          : lowerXmlArguments(f, plans.length, style);
        plans.push(lowered.plan);
        return lowered.format;
      }
      case 'tag':
        return lowerTag(f);
      case 'sequence':
        return { ...f, elements: f.elements.map(lower) };
      case 'triggered_tags':
      case 'tags_with_separator':
        return { ...f, tags: f.tags.map(lowerTag) };
      default:
        return f;
    }
  };
  return { tag: { ...tag, format: lower(tag.format) }, plans };
}

/** An enum or const value as xgrammar's XML converter writes it: a string without its quotes, anything else as JSON. */
function rawLiteral(value: JsonValue): string {
  return `(${ebnfString(typeof value === 'string' ? value : JSON.stringify(value))})`;
}

/**
 * Puts each plan's XML layer in the printed grammar: the rule of the sequence that starts with the plan's sentinel
 * becomes the plan's root, the value placeholders become the names the printout gave the values, and the sentinel's
 * rule goes. Throws when the printout is not what the lowering made (a different web-xgrammar).
 */
export function patchXmlArguments(rules: EbnfRule[], plans: readonly XmlArgumentPlan[]): EbnfRule[] {
  let out = rules;
  for (const plan of plans) {
    const literal = ebnfString(plan.sentinel);
    const sentinelRule = out.find((r) => r.body.trim() === `((${literal}))`);
    const items = (r: EbnfRule) => /^\(\((.*)\)\)$/.exec(r.body.trim())?.[1]?.split(' ') ?? [];
    const sequence = out.find((r) => {
      const first = items(r)[0];
      return r !== sentinelRule && first !== undefined && (first === literal || first === sentinelRule?.name);
    });
    if (!sequence) throw new Error(`XML arguments: the sentinel sequence ${JSON.stringify(plan.sentinel)} is not in the EBNF`);
    const printed = items(sequence).slice(1);
    if (printed.length !== plan.valueNames.length || printed.some((v) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v))) {
      throw new Error(`XML arguments: expected ${plan.valueNames.length} value rule(s) after the sentinel, found ${printed.join(' ')}`);
    }
    const aliases = plan.valueNames.map((name, i) => ({ name, body: printed[i] as string }));
    out = out
      .filter((r) => r !== sentinelRule)
      .map((r) => (r === sequence ? { ...r, body: `((${plan.root}))` } : r))
      .concat(plan.rules, aliases);
  }
  return out;
}
