/**
 * However a DeepSeek-V3.1 completion is cut into deltas (fullwidth markers split anywhere), the accumulated
 * streaming output equals the one-shot parse, and so does the whole parse result.
 */
import { test } from 'node:test';
import { DeepSeekV31Parser } from '../../../../src/core/formats/deepseekV31/deepseekV31Parser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { DEEPSEEK_V31_FIXTURES } from '../../../fixtures/deepseekV31Completions.ts';
import { checkAllCuts } from '../hermes/formatTestKit.ts';

const make = (options?: ParserOptions) => new DeepSeekV31Parser(options);

for (const fx of DEEPSEEK_V31_FIXTURES) {
  test(`deepseek_v31 split property: ${fx.name}`, () => checkAllCuts(make, fx.text, fx.options, fx.name));
}

test('deepseek_v31 split property starting in reasoning on every fixture', () => {
  for (const fx of DEEPSEEK_V31_FIXTURES) checkAllCuts(make, fx.text, { startInReasoning: true }, fx.name);
});
