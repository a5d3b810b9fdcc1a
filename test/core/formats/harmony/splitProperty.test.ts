/**
 * However a Harmony completion is cut into deltas (markers, headers and the first header split anywhere), the
 * accumulated streaming output equals the one-shot parse, and so does the whole parse result.
 */
import { test } from 'node:test';
import { HarmonyParser } from '../../../../src/core/formats/harmony/harmonyParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { HARMONY_FIXTURES } from '../../../fixtures/harmonyCompletions.ts';
import { checkAllCuts } from '../hermes/formatTestKit.ts';

const make = (options?: ParserOptions) => new HarmonyParser(options);

for (const fx of HARMONY_FIXTURES) {
  test(`harmony split property: ${fx.name}`, () => checkAllCuts(make, fx.text, fx.options, fx.name));
}

test('harmony split property around the first-header limit', () => {
  for (const n of [62, 63, 64, 65, 66]) {
    checkAllCuts(make, `${'x'.repeat(n)}<|channel|>final<|message|>ok`, undefined, `${n} chars before the first marker`);
    checkAllCuts(
      make,
      ` to=functions.${'f'.repeat(n - 14)}<|channel|>commentary<|message|>{}<|call|>`,
      undefined,
      `recipient of ${n} chars`,
    );
  }
});
