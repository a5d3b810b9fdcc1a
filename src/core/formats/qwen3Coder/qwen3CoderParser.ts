/**
 * The reference streaming parser for Qwen3-Coder completions (`qwen3_coder`): the key/value kernel
 * (kernel/keyValueCallParser.ts) configured with Qwen3-Coder's markup.
 *
 * A call is `<tool_call><function=NAME><parameter=KEY>VALUE</parameter>…</function></tool_call>`. The client gets
 * OpenAI arguments: a JSON object built from the parameters, each value typed by the tool's schema. String values
 * stream as they are written; other values go out when their parameter closes. One newline after `<parameter=KEY>`
 * and one before `</parameter>` are layout and trimmed. `arguments` is that JSON text; `argumentsSpan` covers the
 * parameters in the completion. The kernel's header lists the edges (closing tags inside values, a missing wrapper).
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import {
  FUNCTION_END,
  PARAMETER_END,
  QWEN3_CODER_SCAN_TABLE,
  QWEN3_CODER_TOKEN_MARKERS,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
} from './qwen3CoderMarkers.ts';

export const QWEN3_CODER_SYNTAX: KeyValueSyntax = {
  table: QWEN3_CODER_SCAN_TABLE,
  tokenMarkers: QWEN3_CODER_TOKEN_MARKERS,
  wrapped: true,
  nameEnd: '>',
  requireName: false,
  keyEnd: '>',
  untypedValues: 'text',
  valueLayout: 'newline',
  words: {
    callBegin: TOOL_CALL_BEGIN,
    callEnd: TOOL_CALL_END,
    functionBegin: '<function=…>',
    functionEnd: FUNCTION_END,
    parameterBegin: '<parameter=…>',
    parameterEnd: PARAMETER_END,
  },
  label: 'Qwen3CoderParser',
};

export class Qwen3CoderParser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(QWEN3_CODER_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseQwen3Coder(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new Qwen3CoderParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
