/**
 * Harmony's own split cases beside the table-driven suite (kit/formatSuite.test.ts): the first header's length limit
 * cut anywhere.
 */
import { test } from 'node:test';
import { HarmonyParser } from '../../../../src/core/formats/harmony/harmonyParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { checkAllCuts } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new HarmonyParser(options);

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
