/**
 * The reference streaming parser for MiniMax-M2.x completions (`minimax_m2`): the key/value kernel
 * (kernel/keyValueCallParser.ts) configured with MiniMax's markup. A `<minimax:tool_call>` block holds one or more
 * `<invoke name="N">` calls; names and keys lose one pair of quotes (vLLM `_extract_name`); a value is every
 * character between `>` and `</parameter>`, kept verbatim as vLLM's minimax_m2 parser keeps it (SGLang strips line
 * breaks around it: docs/formats/minimax.md); values are typed by the tool's schema, untyped ones kept as text. An
 * `<invoke>` outside a block is text, as SGLang reads it (vLLM reads it; Claude's older XML is written so too).
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { INVOKE_END, MINIMAX_SCAN_TABLE, MINIMAX_TOKEN_MARKERS, PARAMETER_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxMarkers.ts';

export const MINIMAX_SYNTAX: KeyValueSyntax = {
  table: MINIMAX_SCAN_TABLE,
  tokenMarkers: MINIMAX_TOKEN_MARKERS,
  wrapped: true,
  nameEnd: '>',
  quotedNames: true,
  requireWrapper: true,
  requireName: false,
  keyEnd: '>',
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: TOOL_CALL_BEGIN,
    callEnd: TOOL_CALL_END,
    functionBegin: '<invoke name="…">',
    functionEnd: INVOKE_END,
    parameterBegin: '<parameter name="…">',
    parameterEnd: PARAMETER_END,
  },
  label: 'MinimaxParser',
};

export class MinimaxParser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(MINIMAX_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseMinimax(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new MinimaxParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
