/**
 * The reference streaming parser for pythonic tool calls (`pythonic`): the pythonic kernel
 * (kernel/pythonicCallParser.ts) configured with a bare list at the start of the answer (vLLM `pythonic`), Llama 4's
 * `<|python_start|>` block holding a list (vLLM `llama4_pythonic`) and Olmo 3's `<function_calls>` block holding one
 * call a line (vLLM `olmo3`).
 */
import { PythonicCallParser, type PythonicSyntax } from '../kernel/pythonicCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { FUNCTION_CALLS, PYTHON_START, PYTHONIC_TABLE } from './pythonicMarkers.ts';

export const PYTHONIC_SYNTAX: PythonicSyntax = {
  table: PYTHONIC_TABLE,
  bodies: { [PYTHON_START]: 'list', [FUNCTION_CALLS]: 'lines' },
  bareList: true,
  engine: "vLLM's pythonic parser",
  label: 'PythonicParser',
};

export class PythonicParser extends PythonicCallParser {
  constructor(options: ParserOptions = {}) {
    super(PYTHONIC_SYNTAX, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parsePythonicCalls(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new PythonicParser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
