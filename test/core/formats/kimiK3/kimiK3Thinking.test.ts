/**
 * Kimi K3's think channel in the guided what-if: a completion that closes `<|close|>think<|sep|>` is judged by the
 * thinking shape, whose prefix is xgrammar's kimi_k3 tag's with `reasoning=True` (mlc-ai/xgrammar@04597e9
 * python/xgrammar/builtin_structural_tag.py): any text up to the think close, then `<|open|>response<|sep|>`. Fed from
 * the start through real web-xgrammar; a record that starts inside the think channel (`--think-open`) is checked too,
 * where a `</think>` search found no end and let the whole completion through unchecked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../../../../src/core/analysis.ts';
import { importText } from '../../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../../src/io/nodeServices.ts';
import { whatIfForRequest } from '../../../../src/core/guided/whatIf.ts';
import { kimiK3ShapeOf } from '../../../../src/core/formats/kimiK3/kimiK3StructuralTag.ts';
import type { ToolChoice } from '../../../../src/core/trace/record.ts';
import { weatherTools } from '../../../fixtures/guided/weatherTool.ts';

const arg = (key: string, type: string, value: string) =>
  `<|open|>argument key="${key}" type="${type}"<|sep|>${value}<|close|>argument<|sep|>`;
const tools = (name: string, days = '2') =>
  `<|open|>tools<|sep|><|open|>call tool="${name}" index="1"<|sep|>${arg('city', 'string', 'Paris')}${arg('days', 'number', days)}<|close|>call<|sep|><|close|>tools<|sep|>`;
const thinking = (think: string, name = 'get_weather', after = '<|open|>response<|sep|>') =>
  `${think}<|close|>think<|sep|>${after}I'll check.<|close|>response<|sep|>${tools(name)}<|close|>message<|sep|>`;

async function run(text: string, toolChoice?: ToolChoice) {
  const out = await whatIfForRequest(
    { tools: weatherTools, tool_choice: toolChoice },
    { text, tokens: [] },
    { format: 'kimi_k3', shape: kimiK3ShapeOf(text) },
  );
  assert.ok(out.ran, JSON.stringify(out));
  return out.result;
}

test('the think close (or a kept think opener) picks the thinking shape; instruct text the default', () => {
  assert.equal(kimiK3ShapeOf(thinking('Hm.')), 'vllm-kimi_k3-thinking');
  assert.equal(kimiK3ShapeOf(`<|open|>think<|sep|>Hm.`), 'vllm-kimi_k3-thinking');
  assert.equal(kimiK3ShapeOf(`I'll check.<|close|>response<|sep|>${tools('get_weather')}`), undefined);
});

test('thinking: reasoning then the response channel and a call is accepted, under auto and required, the opener kept or not', async () => {
  for (const text of [thinking('Paris, two days.'), `<|open|>think<|sep|>${thinking('Paris, two days.')}`])
    for (const choice of [undefined, 'required'] as ToolChoice[]) {
      const r = await run(text, choice);
      assert.equal(r.accepted, true, `${text} ${String(choice)}: ${JSON.stringify(r)}`);
      if (r.accepted) assert.equal(r.grammarStart, 0, 'the think channel is fed, not skipped');
    }
});

test('thinking: a tools channel written inside the think channel is reasoning to the grammar, as to vLLM', async () => {
  const r = await run(thinking(`Maybe ${tools('search_web')} instead.`), 'required');
  assert.equal(r.accepted, true, JSON.stringify(r));
});

test('thinking: an undeclared tool after the reasoning is refused at its name; a response without its open tag at its first character', async () => {
  const hallucinated = thinking('Let me search.', 'search_web');
  const r = await run(hallucinated);
  assert.equal(r.accepted, false);
  if (!r.accepted) assert.equal(r.charOffset, hallucinated.indexOf('search_web'));
  const unopened = thinking('Hm.', 'get_weather', '');
  const u = await run(unopened);
  assert.equal(u.accepted, false);
  if (!u.accepted) assert.equal(u.charOffset, unopened.indexOf("I'll"));
});

test('a record that starts inside the think channel (startInReasoning) is judged, not waved through', async () => {
  const text = thinking('Let me search.', 'search_web');
  const record = { toolscope: 1, id: 'k3', request: { tools: weatherTools }, completion: { text } };
  const loaded = importText(JSON.stringify(record), 'k3.jsonl');
  const a = await new Analyzer({ format: 'kimi_k3', startInReasoning: true }, nodeServices()).analyzeWithGuided(
    loaded.records[0] as (typeof loaded.records)[0],
  );
  const guided = a.diagnostics.filter((d) => d.kind.startsWith('guided-'));
  assert.deepEqual(
    guided.map((d) => [d.kind, d.charStart]),
    [['guided-would-block', text.indexOf('search_web')]],
    JSON.stringify(guided, null, 1),
  );
});
