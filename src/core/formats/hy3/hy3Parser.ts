/**
 * The reference streaming parser for Hunyuan Hy3 completions (`hy_v3`): the key/value kernel
 * (kernel/keyValueCallParser.ts) configured with Hy3's markup, bare or suffixed (hy3Markers.ts). A `<tool_calls>`
 * section holds `<tool_call>NAME<tool_sep>` calls; a name that `<tool_sep>` does not end is no call (vLLM's regex
 * needs the separator). Names and keys are stripped; a value is every character between `<arg_value>` and
 * `</arg_value>`, as vLLM's hy_v3 parser keeps it; values are typed by the tool's schema, untyped ones kept as text
 * (vLLM falls back to `string` for a parameter the schema does not declare).
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import {
  ARG_KEY_BEGIN,
  ARG_KEY_END,
  ARG_VALUE_BEGIN,
  ARG_VALUE_END,
  HY3_SCAN_TABLE,
  HY3_TOKEN_MARKERS,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
  TOOL_CALLS_BEGIN,
  TOOL_CALLS_END,
  TOOL_SEP,
} from './hy3Markers.ts';

export const HY3_SYNTAX: KeyValueSyntax = {
  table: HY3_SCAN_TABLE,
  tokenMarkers: HY3_TOKEN_MARKERS,
  wrapped: true,
  nameEnd: null,
  requireName: true,
  keyEnd: null,
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: TOOL_CALLS_BEGIN,
    callEnd: TOOL_CALLS_END,
    functionBegin: TOOL_CALL_BEGIN,
    functionEnd: TOOL_CALL_END,
    nameEnd: TOOL_SEP,
    parameterBegin: ARG_KEY_BEGIN,
    parameterEnd: ARG_VALUE_END,
    keyEnd: ARG_KEY_END,
    valueBegin: ARG_VALUE_BEGIN,
  },
  label: 'Hy3Parser',
};

export class Hy3Parser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(HY3_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseHy3(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new Hy3Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
