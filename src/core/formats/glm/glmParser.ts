/**
 * The reference streaming parser for GLM completions (`glm`): the key/value kernel (kernel/keyValueCallParser.ts)
 * configured with GLM's markup. One parser reads both layouts: the name ends at a line break (4.5/4.6) or at the
 * first tag after it (4.7/5.x: `<arg_key>`, or `</tool_call>` for a call without arguments). Keys and values are
 * trimmed of surrounding whitespace, as vLLM's and SGLang's GLM parsers `strip()` them; values are typed by the
 * tool's schema (strings raw, other types JSON); a value the schema does not type is JSON when it parses, as the
 * engines read it.
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import {
  ARG_KEY_BEGIN,
  ARG_KEY_END,
  ARG_VALUE_BEGIN,
  ARG_VALUE_END,
  GLM_SCAN_TABLE,
  GLM_TOKEN_MARKERS,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
} from './glmMarkers.ts';

export const GLM_SYNTAX: KeyValueSyntax = {
  table: GLM_SCAN_TABLE,
  tokenMarkers: GLM_TOKEN_MARKERS,
  wrapped: false,
  nameEnd: '\n',
  requireName: true,
  keyEnd: null,
  untypedValues: 'json',
  valueLayout: 'whitespace',
  words: {
    callBegin: TOOL_CALL_BEGIN,
    callEnd: TOOL_CALL_END,
    functionBegin: TOOL_CALL_BEGIN,
    functionEnd: TOOL_CALL_END,
    parameterBegin: ARG_KEY_BEGIN,
    parameterEnd: ARG_VALUE_END,
    keyEnd: ARG_KEY_END,
    valueBegin: ARG_VALUE_BEGIN,
  },
  label: 'GlmParser',
};

export class GlmParser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(GLM_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseGlm(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new GlmParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
