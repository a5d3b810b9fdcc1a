/**
 * Granite 4 writes Hermes' calls and vLLM reads them with `granite4` (granite4_tool_parser.py @ 017e9f4): its test
 * vector, reduced, through the Hermes reference parser — whole, streamed, and cut every way (docs/formats/hermes.md,
 * "Granite 4") — and a Granite 4 record found as Hermes' by its parser name and by its model name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HermesParser } from '../../../../src/core/formats/hermes/hermesParser.ts';
import { detectFormat } from '../../../../src/core/formats/registry.ts';
import { formatOfModel, formatOfParser } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { checkAllCuts, checkDeltas, checkFixture, checkNameFirst, type FormatFixture } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new HermesParser(options);

const SOURCE =
  'https://github.com/vllm-project/vllm/blob/017e9f4448b700e85ee16023287b025693c72b9e/tests/tool_parsers/test_granite4_tool_parser.py';

/** The coordinates argument as Granite writes it there: a JSON string holding the object (`create_string_args`). */
const BBOX_STRING = '"{\\"coordinates\\": [[23.54, 43.1], [-12.2, 54.3], [4, 5]], \\"coordinate_type\\": \\"latlong\\"}"';
const STOCK = '{"symbol": "AAPL", "start_date": "2021-01-01", "end_date": "2021-12-31"}';

/**
 * test_tool_call_parser_complex: three calls `<tool_call> {json} </tool_call>` with text before, between and after.
 * vLLM's granite4 keeps every text segment as written and passes the string arguments' text through; the reference
 * keeps the arguments as written (a JSON string, which the arguments check reports) and the blank right after
 * `</tool_call>` is layout.
 */
const COMPLEX: FormatFixture = {
  name: `granite4: calls between text, string arguments (${SOURCE} test_tool_call_parser_complex)`,
  text:
    'Here goes the bbox call: \n' +
    `<tool_call> {"name": "find_bbox", "arguments": ${BBOX_STRING}} </tool_call>` +
    ' Now the stock price call: \n ' +
    `<tool_call> {"name": "get_stock_price", "arguments": ${STOCK}} </tool_call>` +
    ' Now another bbox call: \n ' +
    `<tool_call> {"name": "find_bbox", "arguments": ${BBOX_STRING}} </tool_call>` +
    " See? I'm a helpful assistant.",
  content: "Here goes the bbox call: \nNow the stock price call: \n Now another bbox call: \n See? I'm a helpful assistant.",
  calls: [
    { name: 'find_bbox', arguments: BBOX_STRING },
    { name: 'get_stock_price', arguments: STOCK },
    { name: 'find_bbox', arguments: BBOX_STRING },
  ],
};

test('granite4 vector through the Hermes parser: whole, deltas, name first, every cut', () => {
  checkFixture(make, COMPLEX, { argumentsVerbatim: true });
  checkDeltas(make, COMPLEX, ['<tool_call>', '</tool_call>']);
  checkNameFirst(make, COMPLEX);
  checkAllCuts(make, COMPLEX.text, undefined, 'granite4 complex');
  assert.equal(detectFormat(COMPLEX.text).name, 'hermes');
});

test('granite4: the parser name and Granite 4 model names are Hermes’; Granite 3.x is not', () => {
  assert.equal(formatOfParser('granite4')?.name, 'hermes');
  for (const model of ['ibm-granite/granite-4.0-h-small', 'ibm-granite/granite-4.0-h-tiny', 'granite-4.0-micro'])
    assert.equal(formatOfModel(model)?.name, 'hermes', model);
  assert.equal(formatOfModel('ibm-granite/granite-3.1-8b-instruct')?.name, 'granite');
});
