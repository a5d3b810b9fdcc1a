/**
 * The reference streaming parser for Seed-OSS completions (`seed_oss`): the key/value kernel
 * (kernel/keyValueCallParser.ts) configured as for Qwen3-Coder, with Seed's wrapper and think tags. One newline after
 * `<parameter=KEY>` and one before `</parameter>` are layout; values are typed by the tool's schema, a value it does not
 * type stays text (vLLM's Qwen3 XML converter, which seed_oss inherits unchanged).
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import {
  FUNCTION_END,
  PARAMETER_END,
  SEED_OSS_SCAN_TABLE,
  SEED_OSS_TOKEN_MARKERS,
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
} from './seedOssMarkers.ts';

export const SEED_OSS_SYNTAX: KeyValueSyntax = {
  table: SEED_OSS_SCAN_TABLE,
  tokenMarkers: SEED_OSS_TOKEN_MARKERS,
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
  label: 'SeedOssParser',
};

export class SeedOssParser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(SEED_OSS_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseSeedOss(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new SeedOssParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
