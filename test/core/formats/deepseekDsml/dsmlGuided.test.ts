/**
 * DSML's what-if compiles the tag of the block the completion opens (FormatGuidedGrammar.shapeOf): a V3.2
 * `function_calls` block is judged by xgrammar's `deepseek_v3_2` tag, a V4.1 spaced block by SGLang's deepseekv41 tag
 * (JSON bodies), not by the default `deepseek_v4` one, in which either would be free text and let through.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer, type AnalyzedRecord } from '../../../../src/core/analysis.ts';
import { importText } from '../../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../../src/io/nodeServices.ts';
import { dsmlCall } from '../../../fixtures/guided/deepseek_dsml.ts';
import { weatherTools } from '../../../fixtures/guided/weatherTool.ts';

async function guided(text: string): Promise<AnalyzedRecord['diagnostics']> {
  const record = { toolscope: 1, id: 'case', request: { tools: weatherTools }, completion: { text } };
  const loaded = importText(JSON.stringify(record), 'case.jsonl');
  const a = await new Analyzer({ format: 'deepseek_dsml' }, nodeServices()).analyzeWithGuided(
    loaded.records[0] as (typeof loaded.records)[0],
  );
  return a.diagnostics.filter((d) => d.kind.startsWith('guided-'));
}

test('deepseek_dsml what-if: a V3.2 block is judged by the deepseek_v3_2 tag', async () => {
  const accepted = await guided(`Checking.\n\n${dsmlCall('get_weather', 'Paris', '3', 'function_calls')}`);
  assert.deepEqual(
    accepted.map((d) => d.kind),
    ['guided-accepts'],
  );
  assert.match(accepted[0]?.message ?? '', /xgrammar's deepseek_v3_2 tag/u);
  const text = dsmlCall('search_web', 'weather', '', 'function_calls');
  const blocked = await guided(text);
  assert.deepEqual(
    blocked.map((d) => [d.kind, d.charStart]),
    [['guided-would-block', text.indexOf('search_web')]],
  );
});

test("deepseek_dsml what-if: a V4.1 spaced block is judged by SGLang's deepseekv41 tag (JSON bodies)", async () => {
  const json =
    '\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name="get_weather">\n{"city": "Paris", "days": 3}</｜DSML｜ invoke>\n</｜DSML｜ calls>';
  assert.deepEqual(
    (await guided(json)).map((d) => d.kind),
    ['guided-accepts'],
  );
  const xml =
    '\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name="get_weather">\n<｜DSML｜ parameter name="city" string="true">Paris</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>';
  const blocked = await guided(xml);
  assert.deepEqual(
    blocked.map((d) => [d.kind, d.charStart]),
    [['guided-would-block', xml.indexOf('<｜DSML｜ parameter')]],
  );
});
