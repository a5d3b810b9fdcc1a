/**
 * Guided decoding keeps the model's values (issue #21): the scripted completion is the model's preferred output,
 * so under the grammar every scripted value the schema allows must come out under its own key, byte for byte,
 * whatever key order the grammar asks for; only refused values change. Checked on every bundled Kimi sample,
 * with the grammar itself as the judge of "allowed" (a one-property tool holding just that key and value).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { compileKimiGrammar, KIMI_MARKUP } from './kimiGrammar.ts';
import { constrainCompletion } from '../../../src/core/guided/constrainedDecoding.ts';
import { UnsupportedSchemaError } from '../../../src/core/guided/schemaSupport.ts';
import { parseKimiK2 } from '../../../src/core/formats/kimiK2/kimiK2Parser.ts';
import type { ChatTool, JsonObject, TraceRecord } from '../../../src/core/trace/record.ts';
import { call, section } from './fixtures.ts';

const SAMPLE = new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url);
const records = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as TraceRecord);

function objectArgs(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether the grammar lets `value` stand as `key` of `tool` (a tool declaring only that property). */
async function allowed(tool: ChatTool, key: string, value: unknown): Promise<boolean> {
  const schema = ((tool.function.parameters?.properties ?? {}) as Record<string, JsonObject>)[key];
  if (!schema) return false;
  const single: ChatTool = {
    type: 'function',
    function: {
      name: tool.function.name,
      parameters: { type: 'object', properties: { [key]: schema }, required: [key], additionalProperties: false },
    },
  };
  const grammar = await compileKimiGrammar([single], 'required');
  return grammarAccepts(grammar, section(call(tool.function.name, 0, JSON.stringify({ [key]: value }))));
}

test('every scripted value the schema allows stays under its own key, byte for byte; only refused ones change', async () => {
  let checked = 0;
  for (const record of records) {
    const tools = record.request?.tools ?? [];
    const scripted = record.completion?.text;
    if (!tools.length || !scripted || record.request?.tool_choice === 'none') continue;
    let grammar;
    try {
      grammar = await compileKimiGrammar(tools, record.request?.tool_choice === 'required' ? 'required' : 'auto');
    } catch (err) {
      // A schema xgrammar cannot compile (the guided-unavailable sample) has no guided answer to judge.
      if (err instanceof UnsupportedSchemaError) continue;
      throw err;
    }
    const out = await constrainCompletion(grammar, KIMI_MARKUP, scripted);
    const before = parseKimiK2(scripted).calls;
    const after = parseKimiK2(out.text).calls;
    for (const [i, sc] of before.entries()) {
      const scriptedArgs = objectArgs(sc.arguments);
      const gc = after[i];
      const tool = tools.find((t) => t.function.name === gc?.name);
      if (!scriptedArgs || !gc || !tool || gc.name !== sc.name) continue;
      const guidedArgs = objectArgs(gc.arguments);
      assert.ok(guidedArgs, `${record.id} call ${i}: guided arguments are JSON: ${gc.arguments}`);
      const props = (tool.function.parameters?.properties ?? {}) as Record<string, unknown>;
      const required = (tool.function.parameters?.required ?? []) as string[];
      for (const [key, value] of Object.entries(scriptedArgs)) {
        const ok = await allowed(tool, key, value);
        const where: string = `${record.id} call ${i} "${key}": scripted ${JSON.stringify(value)}, guided ${gc.arguments}`;
        if (ok) {
          assert.deepEqual(guidedArgs[key], value, where);
          assert.ok(gc.arguments.includes(JSON.stringify(value)) || typeof value === 'object', `byte for byte: ${where}`);
          checked++;
        } else if (!(key in props)) {
          assert.ok(!(key in guidedArgs), `undeclared key dropped: ${where}`);
        } else {
          assert.notDeepEqual(guidedArgs[key], value, `refused value changed: ${where}`);
        }
      }
      // Nothing invented: a key the script lacks is there only because the schema requires it.
      for (const key of Object.keys(guidedArgs)) {
        if (!(key in scriptedArgs))
          assert.ok(required.includes(key), `${record.id} call ${i}: invented optional key "${key}" in ${gc.arguments}`);
      }
    }
  }
  assert.ok(checked >= 20, `values checked: ${checked}`);
});

test('the schema-violation sample: the date stays in start, the duration is clamped, the title comes from the schema', async () => {
  const record = records.find((r) => r.id === 'schema-violations') as TraceRecord;
  const grammar = await compileKimiGrammar(record.request?.tools ?? [], 'auto');
  const out = await constrainCompletion(grammar, KIMI_MARKUP, record.completion?.text ?? '');
  const [event, email] = parseKimiK2(out.text).calls;
  const args = JSON.parse(event?.arguments ?? '{}') as Record<string, unknown>;
  assert.equal(args.start, '2025-10-22T14:00:00Z', event?.arguments);
  assert.equal(args.duration_minutes, 240, event?.arguments);
  assert.equal(typeof args.title, 'string');
  assert.notEqual(args.title, args.start);
  assert.ok(!('location' in args), event?.arguments);
  // xgrammar keeps the schema's property order.
  assert.deepEqual(Object.keys(args), ['title', 'start', 'duration_minutes']);
  const mail = JSON.parse(email?.arguments ?? '{}') as Record<string, unknown>;
  assert.equal(mail.subject, 'Design review agenda');
  assert.equal(mail.body, '1. Goals\n2. Open questions\n3. Next steps');
  assert.match(String(mail.to), /@/);
});

test('keys in another order than the schema: each key keeps its own value; a bad enum becomes the nearest value', async () => {
  const tools: ChatTool[] = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
            days: { type: 'integer', minimum: 1, maximum: 7 },
          },
          required: ['city', 'unit'],
          additionalProperties: false,
        },
      },
    },
  ];
  const grammar = await compileKimiGrammar(tools, 'auto');
  const out = await constrainCompletion(
    grammar,
    KIMI_MARKUP,
    section(call('get_weather', 0, '{"days": 0, "unit": "Fahrenheit", "city": "Oslo", "extra": true}')),
  );
  assert.ok(out.complete);
  assert.ok(await grammarAccepts(grammar, out.text), out.text);
  const args = parseKimiK2(out.text).calls[0]?.arguments ?? '';
  assert.equal(args, '{"city": "Oslo", "unit": "fahrenheit", "days": 1}');
  assert.ok(out.firstChange !== null);
});
