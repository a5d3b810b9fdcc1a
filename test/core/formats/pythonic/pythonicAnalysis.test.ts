/**
 * End to end: the Analyzer detects pythonic and LFM2 records without --format, turns Python literals into JSON, shows
 * markers, and reports one finding for one fault — a list leaked into content is one content-leak, whether the leak
 * rule (markers) or the no-markup scanner (a bare list) sees it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';
import { completionResponse } from '../../diagnostics/analyze.helpers.ts';
import { Analyzer } from '../../../../src/core/analysis.ts';
import { importText } from '../../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../../src/io/nodeServices.ts';

test('pythonic analysis: a clean call list in every layout is detected, turned into JSON, clean', () => {
  for (const [text, markers] of [
    ['[get_weather(city="Paris", days=3)]', []],
    ['<|python_start|>[get_weather(city="Paris", days=3)]<|python_end|><|eom|>', ['<|python_start|>', '<|python_end|>', '<|eom|>']],
    ['<function_calls>get_weather(city="Paris", days=3)</function_calls>', ['<function_calls>', '</function_calls>']],
  ] as const) {
    const r = analyze(record({ completion: { text, finish_reason: 'tool_calls' } }));
    assert.equal(r.format, 'pythonic', text);
    assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    assertClean(r, text);
    assertMarkerChips(r, markers);
  }
});

test('lfm2 analysis: a clean call with content before is detected and clean; an unknown tool and a schema violation are found', () => {
  const text = 'Checking.<|tool_call_start|>[get_weather(city="Paris", days=3)]<|tool_call_end|>';
  const r = analyze(record({ completion: { text, finish_reason: 'tool_calls' } }));
  assert.equal(r.format, 'lfm2');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
  assertClean(r, text);
  assertMarkerChips(r, ['<|tool_call_start|>', '<|tool_call_end|>']);
  assert.ok(
    kinds(analyze(record({ completion: { text: '<|tool_call_start|>[get_stock(t="X")]<|tool_call_end|>' } }))).includes('unknown-tool'),
  );
  const schema = analyze(record({ completion: { text: '<|tool_call_start|>[get_weather(city="Oslo", days="three")]<|tool_call_end|>' } }));
  assert.deepEqual(
    schema.diagnostics.filter((d) => d.kind === 'schema-violation').map((d) => d.path),
    ['$.days'],
  );
});

test('one fault, one finding: a pythonic list or an LFM2 block leaked into content', () => {
  for (const [content, detail] of [
    ['[get_weather(city="Paris")]', 'pythonic:pythonic'],
    ['<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>', 'lfm2'],
    ['Sure. <|python_start|>[get_weather(city="Paris")]<|python_end|>', 'pythonic'],
  ] as const) {
    for (const meta of [{}, { format: 'pythonic' }, { format: 'lfm2' }, { format: 'kimi_k2' }] as Array<{ format?: string }>) {
      const r = analyze(record({ meta, response: completionResponse(content, [], 'stop') }));
      const leaks = r.diagnostics.filter((d) => d.kind === 'content-leak');
      // A bare list in an LFM2 record is LFM2's call with its markers stripped: the record's own format is named.
      const expected = detail === 'pythonic:pythonic' && meta.format === 'lfm2' ? 'pythonic:lfm2' : detail;
      assert.deepEqual(
        leaks.map((d) => d.detail),
        [expected],
        `${content} read as ${JSON.stringify(meta)}: ${kinds(r).join(', ')}`,
      );
      assert.deepEqual(
        r.diagnostics.filter((d) => d.kind === 'unknown-markup-in-content'),
        [],
      );
    }
  }
});

test('an argument the engine cannot turn is reported with what it is, never a guessed call', () => {
  const r = analyze(record({ completion: { text: '[get_weather(city=home_city)]' } }));
  assert.deepEqual(r.calls, []);
  assert.match(JSON.stringify(r.diagnostics), /a bare name \(home_city\) is not a literal/u);
});

test('pythonic and lfm2 analysis: the bundled samples fire their kinds and the clean one is clean', async () => {
  await checkSamples('pythonic');
  await checkSamples('lfm2');
});

test('no engine grammar: with the grammar engine on, the what-if says so once per record, as info, and compiles nothing', async () => {
  const services = nodeServices();
  for (const [format, text] of [
    ['pythonic', '[get_weather(city="Paris")]'],
    ['lfm2', '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>'],
  ] as const) {
    const loaded = importText(JSON.stringify(record({ completion: { text } })), 'case.jsonl');
    const a = await new Analyzer({}, services).analyzeWithGuided(loaded.records[0] as (typeof loaded.records)[0]);
    assert.equal(a.format, format);
    const guided = a.diagnostics.filter((d) => d.kind.startsWith('guided-'));
    assert.deepEqual(
      guided.map((d) => [d.kind, d.severity, d.detail]),
      [['guided-unavailable', 'info', 'no-engine-grammar']],
    );
    assert.match(guided[0]!.message, /has no engine grammar for .* calls to compile \(no structural tag for .*017e9f44/u);
  }
});
