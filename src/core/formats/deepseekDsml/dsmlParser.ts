/**
 * The reference streaming parser for DeepSeek DSML completions (`deepseek_dsml`): the key/value kernel
 * (kernel/keyValueCallParser.ts) configured with DSML's tags, every generation's spelling at once (V3.2's
 * `function_calls`, V4's `tool_calls`, V4.1's spaced tags). A block of calls is the kernel's call wrapper and holds
 * several invokes; an invoke's name runs to its closing quote and its header to `>`; a parameter's key likewise, and
 * its `string` attribute types the value: `true` raw text (streamed as written), `false` JSON when it parses, else the
 * text (vLLM's `_dsml_arg_converter`, SGLang's `_parse_parameters_from_xml`). A parameter without the attribute is
 * typed by the tool's schema. Values are kept as written, as vLLM keeps them (SGLang strips them: docs/formats/deepseek-dsml.md).
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import { UNTYPED_JSON, type ParameterType } from '../kernel/parameterTypes.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { DSML_SCAN_TABLE, DSML_TOOL_TAGS, V4_SPELLING } from './dsmlMarkers.ts';

const RAW: ParameterType = { string: true, nullable: false, boolean: false };

/** The type a parameter's `string="true|false"` attribute gives its value; undefined without one. */
export function dsmlAttributeType(attributes: string): ParameterType | undefined {
  const m = /(?:^|\s)string\s*=\s*"(true|false)"/u.exec(attributes);
  if (!m) return undefined;
  return m[1] === 'true' ? RAW : UNTYPED_JSON;
}

export const DSML_SYNTAX: KeyValueSyntax = {
  table: DSML_SCAN_TABLE,
  tokenMarkers: DSML_TOOL_TAGS,
  wrapped: true,
  manyFunctions: true,
  nameEnd: '"',
  requireName: true,
  keyEnd: '"',
  attributesEnd: '>',
  attributeType: dsmlAttributeType,
  untypedValues: 'json',
  valueLayout: 'verbatim',
  words: {
    callBegin: V4_SPELLING.callsBegin,
    callEnd: V4_SPELLING.callsEnd,
    functionBegin: '<｜DSML｜invoke>',
    functionEnd: V4_SPELLING.invokeEnd,
    parameterBegin: '<｜DSML｜parameter>',
    parameterEnd: V4_SPELLING.parameterEnd,
  },
  label: 'DeepSeekDsmlParser',
};

export class DeepSeekDsmlParser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(DSML_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseDsml(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new DeepSeekDsmlParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
