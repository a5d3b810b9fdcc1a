/**
 * xgrammar's `minimax_m3_xml` argument style (MiniMax-M3), rebuilt for web-xgrammar 0.1.27, which has no such style:
 * the arguments are elements named after their keys, every tag led by the style's prefix (the namespace token
 * `]<]minimax[>[`), as the style's converter writes them (MiniMaxM3XMLToolCallingConverter,
 * cpp/converter_ext/minimax_m3.cc and cpp/json_schema_converter_ext.cc @ mlc-ai/xgrammar
 * 22ac68df4a2243cd8600126d4dc706433ba530fd, "feat: support minimax-m3 style tool call structural tag"):
 * - an object is its properties as `PREFIX<KEY>` VALUE `PREFIX</KEY>` elements in declared order (required ones
 *   present, no others unless additionalProperties allows them, after the declared ones), whitespace around and
 *   between them; an object without properties or extra members is empty;
 * - an array is its items as `PREFIX<item>` elements (minItems/maxItems held), whitespace around and between;
 * - a string is raw text without the prefix (pattern, a known format or length bounds are refused, as xgrammar
 *   refuses them: they cannot be combined with the prefix's exclusion); an enum or const is its literal (strings
 *   raw, objects and arrays as elements);
 * - numbers, integers (their bounds held), booleans and null are JSON, compiled by web-xgrammar's own converter.
 * Two gaps, both looser than xgrammar: an extra member's closing name is not held equal to its opening one (xgrammar
 * 0.2's DynamicTag backreference has no counterpart in web-xgrammar 0.1.27), and the children of a value whose schema
 * is `{}` may have whitespace between them (xgrammar's any-value repeats its elements back to back; the chat template
 * writes one a line).
 *
 * How: as xmlArgumentLowering.ts does it — the format becomes a sentinel and one `json_schema` per JSON value, and the
 * printout's sequence rule is then replaced by the element layer written here.
 */
import type { JsonObject, JsonValue } from '../trace/record.ts';
import type { JsonSchemaFormat, StructuralTagFormat, XmlArgumentStyle } from '../formats/structuralTag/structuralTagFormat.ts';
import { ebnfString, type EbnfRule } from './ebnfRules.ts';
import { stringFormatRegex } from './stringFormatRegex.ts';
import { count, isObject, schemaCacheKey, WS, XmlArgumentLoweringError, type Schema, type XmlLoweringPlan } from './xmlLoweringParts.ts';

/** How an element closes: the whole closing tag, and what follows the prefix (a string value's text ends at it). */
interface Closing {
  full: string;
  afterPrefix: string;
}

export function lowerXmlElements(
  format: JsonSchemaFormat,
  n: number,
  style: XmlArgumentStyle,
  sentinel: string,
): { format: StructuralTagFormat; plan: XmlLoweringPlan } {
  const elements = style.elements;
  if (!elements) throw new Error(`${style.style} is no element style`);
  const { prefix, arrayItem } = elements;
  const fail = (message: string): never => {
    throw new XmlArgumentLoweringError(style.style, message);
  };
  const root = format.json_schema;
  const name = `toolscope_mx${n}`;
  const values: StructuralTagFormat[] = [];
  const rules: EbnfRule[] = [];
  const named = new Set<string>();
  const addRule = (rule: string, body: string): string => {
    if (!named.has(rule)) {
      named.add(rule);
      rules.push({ name: rule, body });
    }
    return rule;
  };
  let fresh = 0;
  const newRule = (hint: string, body: string): string => addRule(`${name}_${hint}${fresh++}`, body);
  const defs = isObject(root)
    ? Object.fromEntries(['$defs', 'definitions'].filter((k) => k in root).map((k) => [k, root[k] as JsonValue]))
    : {};
  const json = (schema: JsonObject): string => {
    values.push({ type: 'json_schema', json_schema: { ...defs, ...schema } });
    return `${name}_v${values.length - 1}`;
  };
  // Raw text up to and including the first prefix (xgrammar: text excluding the prefix, then the closing tag).
  const text = () =>
    addRule(`${name}_text`, `TagDispatch(\n  stop_eos=false,\n  stop_str=(${ebnfString(prefix)}),\n  loop_after_dispatch=false\n)`);
  // An extra member's name: not empty, no `/` first, no `>` (ValidateElementName).
  const dynamicName = () => addRule(`${name}_name`, '[^/>] [^>]*');
  const fixed = (key: string): Closing => {
    if (key === '' || key.startsWith('/') || key.includes('>')) fail(`the property name ${JSON.stringify(key)} cannot be an element name`);
    return { full: ebnfString(`${prefix}</${key}>`), afterPrefix: ebnfString(`</${key}>`) };
  };
  const dynamic = (): Closing => ({
    full: `${ebnfString(`${prefix}</`)} ${dynamicName()} ">"`,
    afterPrefix: `"</" ${dynamicName()} ">"`,
  });
  const element = (key: string, schema: Schema): string => `${ebnfString(`${prefix}<${key}>`)} ${valueAndClose(schema, fixed(key))}`;
  const dynamicElement = (schema: Schema): string => `${ebnfString(`${prefix}<`)} ${dynamicName()} ">" ${valueAndClose(schema, dynamic())}`;

  const resolve = (ref: string, seen: ReadonlySet<string>): Schema => {
    if (seen.has(ref)) fail(`the $ref ${ref} of a parameter refers to itself`);
    if (!ref.startsWith('#/')) fail(`the $ref ${ref} of a parameter does not point into the schema's $defs`);
    let at: unknown = root;
    for (const part of ref.slice(2).split('/').filter(Boolean)) at = isObject(at) ? at[part] : undefined;
    if (at === undefined) fail(`the $ref ${ref} points to nothing`);
    return at as Schema;
  };

  /** A const or enum value as GenerateLiteral writes it: strings raw, objects and arrays as elements, else JSON. */
  const literal = (value: JsonValue): string => {
    if (typeof value === 'string') {
      if (value.includes(prefix)) fail(`a string literal cannot hold ${prefix}`);
      return value === '' ? '""' : ebnfString(value);
    }
    if (Array.isArray(value))
      return value.length === 0
        ? '""'
        : value.map((v) => `${ebnfString(`${prefix}<${arrayItem}>`)} ${literal(v)} ${fixed(arrayItem).full}`).join(' ');
    if (isObject(value)) {
      const entries = Object.entries(value);
      return entries.length === 0
        ? '""'
        : entries.map(([k, v]) => `${ebnfString(`${prefix}<${k}>`)} ${literal(v)} ${fixed(k).full}`).join(' ');
    }
    return ebnfString(JSON.stringify(value));
  };

  /** Any value (EnsureAnyRules): raw text, or one or more child elements of any names, or of `item`s. */
  let anyChildren: string | undefined;
  const anyValueAndClose = (closing: Closing): string => {
    if (anyChildren === undefined) {
      anyChildren = `${name}_any_children`;
      named.add(anyChildren);
      const child = `${dynamicElement(true)}`;
      rules.push({ name: anyChildren, body: `${WS} ${child} (${WS} ${child})* ${WS}` });
    }
    return `((${text()} ${closing.afterPrefix}) | (${anyChildren} ${closing.full}))`;
  };

  /** VALUE then the element's closing tag, for the value's schema (GenerateFromSpec of the converter). */
  const valueAndClose = (schema: Schema, closing: Closing, seen: ReadonlySet<string> = new Set()): string => {
    if (schema === true) return anyValueAndClose(closing);
    if (!isObject(schema)) return fail('a parameter schema must be an object or true');
    const key = schemaCacheKey(schema);
    if (key === '{}') return anyValueAndClose(closing);
    if (typeof schema.$ref === 'string') return valueAndClose(resolve(schema.$ref, seen), closing, new Set([...seen, schema.$ref]));
    if ('const' in schema) return `${literal(schema.const as JsonValue)} ${closing.full}`;
    if (Array.isArray(schema.enum)) {
      if (schema.enum.length === 0) fail('an empty enum allows no value');
      return `(${schema.enum.map((v) => `(${literal(v)})`).join(' | ')}) ${closing.full}`;
    }
    const options = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (options) return `(${options.map((o) => `(${valueAndClose(o as Schema, closing, seen)})`).join(' | ')})`;
    if (Array.isArray(schema.allOf)) {
      if (schema.allOf.length !== 1) fail('allOf with several schemas is not lowered');
      return valueAndClose(schema.allOf[0] as Schema, closing, seen);
    }
    if (Array.isArray(schema.type))
      return `(${schema.type.map((t) => `(${valueAndClose({ ...schema, type: t }, closing, seen)})`).join(' | ')})`;
    switch (schema.type) {
      case 'string': {
        const known = typeof schema.format === 'string' && stringFormatRegex(schema.format) !== undefined;
        if (typeof schema.pattern === 'string' || known || count(schema.minLength, 0) !== 0 || count(schema.maxLength, -1) !== -1)
          fail(`a string's pattern, format or length bounds cannot be combined with the ${prefix} exclusion (xgrammar refuses them too)`);
        return `${text()} ${closing.afterPrefix}`;
      }
      case 'integer':
      case 'number':
      case 'boolean':
      case 'null':
        return `${json(schema)} ${closing.full}`;
      case 'array':
        return `${array(schema)} ${closing.full}`;
      case 'object':
        return `${object(schema)} ${closing.full}`;
      default:
        if (schema.type === undefined && isObject(schema.properties)) return `${object(schema)} ${closing.full}`;
        if (schema.type === undefined) return anyValueAndClose(closing);
        return fail(`the type ${JSON.stringify(schema.type)} is not a JSON-schema type`);
    }
  };

  /** The items as `item` elements, whitespace around and between (GenerateArray). */
  const array = (schema: JsonObject): string => {
    if (schema.prefixItems !== undefined) fail('prefixItems are not lowered');
    const max = count(schema.maxItems, -1);
    const min = count(schema.minItems, 0);
    if (max === 0 || schema.items === false) return '""';
    const item = newRule('item', element(arrayItem, (schema.items ?? true) as Schema));
    const more = `(${WS} ${item}){${Math.max(0, min - 1)},${max === -1 ? '' : max - 1}}`;
    const some = `${WS} ${item} ${more} ${WS}`;
    return newRule('array', min === 0 ? `(${some}) | ""` : some);
  };

  /** The declared properties in order, required ones present, then extra members where allowed (GenerateObject). */
  const object = (schema: JsonObject): string => {
    if (schema.patternProperties !== undefined || schema.propertyNames !== undefined)
      fail('patternProperties and propertyNames are not lowered');
    const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    for (const r of required) if (!properties.some(([k]) => k === r)) fail(`the required property ${r} has no schema`);
    const extraSchema = [schema.additionalProperties, schema.unevaluatedProperties].find((e) => e !== undefined && e !== false);
    // `{"type": "object"}` alone: any members (xgrammar's unconstrained object).
    const extra = extraSchema ?? (properties.length === 0 && schema.additionalProperties === undefined ? true : undefined);
    const members = properties.map(([key, s]) => element(key, s as Schema));
    const other = extra === undefined ? null : dynamicElement(extra as Schema);
    if (members.length === 0 && other === null) return '""';
    // A chain: the rule of the next property, each optional one skippable.
    let next = other ? newRule('others', `(${other} ${WS})*`) : '""';
    for (let i = members.length - 1; i >= 0; i--) {
      const [key] = properties[i] as [string, JsonValue];
      const take = `${members[i]} ${WS} ${next}`;
      next = newRule('part', required.has(key) ? take : `(${take}) | ${next}`);
    }
    return newRule('object', `${WS} ${next}`);
  };

  let body: string;
  if (root === true || (isObject(root) && schemaCacheKey(root) === '{}')) body = object({ type: 'object', additionalProperties: true });
  else if (isObject(root) && (root.type === 'object' || (root.type === undefined && isObject(root.properties)))) body = object(root);
  else body = fail('the parameters schema is not an object');
  const top = addRule(`${name}_root`, body);
  return {
    format: { type: 'sequence', elements: [{ type: 'const_string', value: sentinel }, ...values] },
    plan: { sentinel, rules, root: top, valueNames: values.map((_, i) => `${name}_v${i}`) },
  };
}
