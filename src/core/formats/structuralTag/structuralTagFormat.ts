/**
 * The structural-tag JSON, field for field as xgrammar 0.2.x serialises it (pydantic dump order), which is what
 * vLLM builds and what engines accept in `structured_outputs.structural_tag` / `response_format`.
 */
import type { JsonObject } from '../../trace/record.ts';

export interface ConstStringFormat {
  type: 'const_string';
  value: string;
}

export interface RegexFormat {
  type: 'regex';
  pattern: string;
}

export interface JsonSchemaFormat {
  type: 'json_schema';
  /** `true` = any JSON value (xgrammar's choice for tools without parameters or with `strict: false`). */
  json_schema: JsonObject | boolean;
  /**
   * How the value is written: `json`, or an XML style a format declares (`XmlArgumentStyle`: Qwen3-Coder's `qwen_xml`,
   * GLM's `glm_xml`), the top-level object as tagged members, strings raw.
   */
  style?: string;
  any_order?: boolean;
}

/**
 * One of xgrammar's XML argument styles, as the format that writes it declares it: the tool's top-level object as
 * `keyBegin NAME keyEnd [whitespace] valueBegin VALUE valueEnd` members, strings raw, any other value JSON. Guided
 * decoding lowers a `json_schema` of this style to EBNF for web-xgrammar, which has none of them (guided/xmlArgumentLowering.ts).
 */
export interface XmlArgumentStyle {
  /** The `style` of the json_schema formats written so (`qwen_xml`, `glm_xml`). */
  readonly style: string;
  readonly keyBegin: string;
  readonly keyEnd: string;
  /** What opens the value after the key (GLM's `<arg_value>`); empty when the key's end opens it. */
  readonly valueBegin: string;
  readonly valueEnd: string;
  /** Whitespace may stand between the key's end and the value's begin (GLM 4.5's line break). */
  readonly spaceBeforeValue: boolean;
  /**
   * One of these follows `keyEnd` (xgrammar's `deepseek_xml`: `true">` or `false">` after `" string="`, either for any
   * value); absent: nothing does.
   */
  readonly keySuffixes?: readonly string[];
  /**
   * The arguments are elements named after their keys, every tag led by `prefix` (xgrammar's `minimax_m3_xml`:
   * `PREFIX<KEY>VALUE PREFIX</KEY>`), objects and arrays nested as child elements (`arrayItem` per item), strings raw
   * text without the prefix; lowered by guided/xmlElementLowering.ts. The key/value fields above then describe one
   * element (`PREFIX<`, `>`, `PREFIX</`) for the what-if's words.
   */
  readonly elements?: { readonly prefix: string; readonly arrayItem: string };
}

export interface AnyTextFormat {
  type: 'any_text';
  excludes?: string[];
}

export interface SequenceFormat {
  type: 'sequence';
  elements: StructuralTagFormat[];
}

export interface TagFormat {
  type: 'tag';
  begin: string;
  content: StructuralTagFormat;
  /** Several strings: the tag may end with any of them (xgrammar ≥ 0.2; Harmony's final message). */
  end: string | string[];
}

export interface TriggeredTagsFormat {
  type: 'triggered_tags';
  triggers: string[];
  tags: TagFormat[];
  at_least_one?: boolean;
  stop_after_first?: boolean;
  /** Strings the free text around the tags may not contain (xgrammar ≥ 0.2). */
  excludes?: string[];
}

export interface TagsWithSeparatorFormat {
  type: 'tags_with_separator';
  tags: TagFormat[];
  separator: string;
  at_least_one?: boolean;
  stop_after_first?: boolean;
}

export type StructuralTagFormat =
  | ConstStringFormat
  | RegexFormat
  | JsonSchemaFormat
  | AnyTextFormat
  | SequenceFormat
  | TagFormat
  | TriggeredTagsFormat
  | TagsWithSeparatorFormat;

export interface StructuralTag {
  type: 'structural_tag';
  format: StructuralTagFormat;
}

/** Every format in the tree, parents before children. */
export function* walkFormats(format: StructuralTagFormat): Generator<StructuralTagFormat> {
  yield format;
  switch (format.type) {
    case 'sequence':
      for (const e of format.elements) yield* walkFormats(e);
      break;
    case 'tag':
      yield* walkFormats(format.content);
      break;
    case 'triggered_tags':
    case 'tags_with_separator':
      for (const t of format.tags) yield* walkFormats(t);
      break;
    default:
      break;
  }
}
