/**
 * The table-driven suite over every registered format (rows in formatRows.ts): however a completion is cut into
 * deltas, streaming equals the one-shot parse (the split property, formatTestKit.ts), and the parser's state follows
 * the markup piece by piece. Format-specific properties stay beside each format's own tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNames, getFormat } from '../../../../src/core/formats/registry.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { checkAllCuts } from './formatTestKit.ts';
import { FORMAT_ROWS } from './formatRows.ts';

test('every registered format has a row in the table', () => {
  assert.deepEqual(
    formatNames().filter((name) => !FORMAT_ROWS[name]),
    [],
    'add the format to test/core/formats/kit/formatRows.ts',
  );
});

for (const name of formatNames()) {
  const row = FORMAT_ROWS[name];
  if (!row) continue;
  const format = getFormat(name);
  const make = (options?: ParserOptions) => format.createParser(options);

  for (const fx of row.fixtures) {
    test(`${name} split property: ${fx.name}`, () => {
      checkAllCuts(make, fx.text, fx.options, fx.name);
      for (const variant of row.variants)
        checkAllCuts(make, fx.text, { ...fx.options, ...variant }, `${fx.name} (${JSON.stringify(variant)})`);
    });
  }

  test(`${name}: the state follows the markup`, () => {
    const p = make(row.stateOptions);
    const states = row.states.map(([piece]) => {
      p.push(piece);
      return p.state;
    });
    assert.deepEqual(
      states,
      row.states.map(([, state]) => state),
    );
  });
}
