/**
 * However a Hermes completion is cut into deltas, the accumulated streaming output equals the one-shot parse
 * (content, reasoning, calls), and so does the whole parse result (spans, markers, notes).
 */
import { test } from 'node:test';
import { HermesParser } from '../../../../src/core/formats/hermes/hermesParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { HERMES_FIXTURES } from '../../../fixtures/hermesCompletions.ts';
import { checkAllCuts } from './formatTestKit.ts';

const make = (options?: ParserOptions) => new HermesParser(options);

for (const fx of HERMES_FIXTURES) {
  test(`hermes split property: ${fx.name}`, () => checkAllCuts(make, fx.text, fx.options, fx.name));
}

test('hermes split property starting in reasoning on every fixture', () => {
  for (const fx of HERMES_FIXTURES) checkAllCuts(make, fx.text, { ...fx.options, startInReasoning: true }, fx.name);
});
