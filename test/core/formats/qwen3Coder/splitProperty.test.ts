/**
 * However a Qwen3-Coder completion is cut into deltas (mid-tag, mid-newline, mid-surrogate pair), the accumulated
 * streaming output equals the one-shot parse, and so does the whole parse result.
 */
import { test } from 'node:test';
import { Qwen3CoderParser } from '../../../../src/core/formats/qwen3Coder/qwen3CoderParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { QWEN3_CODER_FIXTURES } from '../../../fixtures/qwen3CoderCompletions.ts';
import { checkAllCuts } from '../hermes/formatTestKit.ts';

const make = (options?: ParserOptions) => new Qwen3CoderParser(options);

for (const fx of QWEN3_CODER_FIXTURES) {
  test(`qwen3_coder split property: ${fx.name}`, () => checkAllCuts(make, fx.text, fx.options, fx.name));
}

test('qwen3_coder split property without tools (all values text) and starting in reasoning', () => {
  for (const fx of QWEN3_CODER_FIXTURES) {
    checkAllCuts(make, fx.text, {}, `${fx.name} (no tools)`);
    checkAllCuts(make, fx.text, { ...fx.options, startInReasoning: true }, `${fx.name} (in reasoning)`);
  }
});
