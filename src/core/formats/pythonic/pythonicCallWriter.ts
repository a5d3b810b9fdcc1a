/**
 * Pythonic calls as Llama 4 writes them with content before: `<|python_start|>[f(a=1, b="x"), g()]<|python_end|>`
 * (a bare list is read only as the whole answer, so the writer uses Llama 4's block, read anywhere), keyword
 * arguments as Python literals (kernel/pythonLiteral.ts), each followed by `, `.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { keywordArgument } from '../kernel/pythonLiteral.ts';
import { PYTHON_END, PYTHON_START } from './pythonicMarkers.ts';

export const pythonicCallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: `${PYTHON_START}[`,
  separator: ', ',
  close: `]${PYTHON_END}`,
  head: (name) => `${name}(`,
  member: keywordArgument,
  tail: ')',
};
