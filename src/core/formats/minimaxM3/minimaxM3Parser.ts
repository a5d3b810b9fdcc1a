/**
 * The reference streaming parser for MiniMax-M3 completions (`minimax_m3`): the key/value kernel
 * (kernel/keyValueCallParser.ts) with M3's namespaced tags and element values. A block holds one or more invokes;
 * the name loses one pair of quotes; a parameter is a tag named after its key, closed by a tag naming it, its value
 * every character between the two kept verbatim (vLLM minimax_m3.rs keeps `\nrectangle\n`), objects and arrays as
 * child tags typed by the schema (kernel/elementValues.ts). Values are sent whole when they close, as vLLM sends the
 * whole invoke. Reasoning is `<mm:think>` … `</mm:think>`.
 */
import { KeyValueCallParser, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { INVOKE_END, MINIMAX_M3_SCAN_TABLE, MINIMAX_M3_TOKEN_MARKERS, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxM3Markers.ts';

export const MINIMAX_M3_SYNTAX: KeyValueSyntax = {
  table: MINIMAX_M3_SCAN_TABLE,
  tokenMarkers: MINIMAX_M3_TOKEN_MARKERS,
  wrapped: true,
  manyFunctions: true,
  nameEnd: '>',
  quotedNames: true,
  requireWrapper: true,
  requireName: false,
  keyEnd: '>',
  untypedValues: 'text',
  valueLayout: 'verbatim',
  elementValues: true,
  words: {
    callBegin: TOOL_CALL_BEGIN,
    callEnd: TOOL_CALL_END,
    functionBegin: ']<]minimax[>[<invoke name="…">',
    functionEnd: INVOKE_END,
    parameterBegin: ']<]minimax[>[<KEY>',
    parameterEnd: ']<]minimax[>[</KEY>',
  },
  label: 'MinimaxM3Parser',
};

export class MinimaxM3Parser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(MINIMAX_M3_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseMinimaxM3(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new MinimaxM3Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
