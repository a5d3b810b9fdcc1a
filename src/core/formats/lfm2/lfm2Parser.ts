/**
 * The reference streaming parser for LFM2 / LFM2.5 (`lfm2`): the pythonic kernel (kernel/pythonicCallParser.ts)
 * with one block form, `<|tool_call_start|>[…]<|tool_call_end|>`, and no bare list (vLLM's lfm2 parser reads calls
 * only between its markers). vLLM @ 017e9f44 also repairs text that is not Python before giving up (raw line breaks
 * and NUL bytes inside strings, leading zeros, nested quotes, Python keywords as parameter names); those repairs are
 * vLLM's alone and are not guessed here: such a block is content with a note (docs/formats/lfm2.md).
 */
import { PythonicCallParser, type PythonicSyntax } from '../kernel/pythonicCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { LFM2_TABLE, TOOL_CALL_START } from './lfm2Markers.ts';

export const LFM2_SYNTAX: PythonicSyntax = {
  table: LFM2_TABLE,
  bodies: { [TOOL_CALL_START]: 'list' },
  bareList: false,
  engine: "vLLM's lfm2 parser",
  label: 'Lfm2Parser',
};

export class Lfm2Parser extends PythonicCallParser {
  constructor(options: ParserOptions = {}) {
    super(LFM2_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseLfm2(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new Lfm2Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
