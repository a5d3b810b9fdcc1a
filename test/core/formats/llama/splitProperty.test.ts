/**
 * However a Llama completion is cut into deltas, the accumulated streaming output equals the one-shot parse
 * (content, calls), and so does the whole parse result (spans, markers, notes).
 */
import { test } from 'node:test';
import { LlamaParser } from '../../../../src/core/formats/llama/llamaParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { LLAMA_FIXTURES } from '../../../fixtures/llamaCompletions.ts';
import { checkAllCuts } from '../hermes/formatTestKit.ts';

const make = (options?: ParserOptions) => new LlamaParser(options);

for (const fx of LLAMA_FIXTURES) {
  test(`llama split property: ${fx.name}`, () => checkAllCuts(make, fx.text, fx.options, fx.name));
}
