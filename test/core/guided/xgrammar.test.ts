import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileStructuralTag, grammarAccepts, structuralTagToEbnf, type CompiledGrammar } from '../../../src/core/guided/xgrammar.ts';
import { compileKimiGrammar } from './kimiGrammar.ts';
import { buildKimiStructuralTag } from '../../../src/core/formats/kimiK2/kimiK2StructuralTag.ts';
import { findRootRule, parseRules, referencedNames } from '../../../src/core/guided/ebnfRules.ts';
import { UnsupportedRegexError } from '../../../src/core/guided/regexSupport.ts';
import type { ChatTool, ToolChoice } from '../../../src/core/trace/record.ts';
import type { JsonObject } from '../../../src/shared/record.ts';
import { call, section, TOOLS } from './fixtures.ts';

const NAMED: ToolChoice = { type: 'function', function: { name: 'get_weather' } };

const VALID_WEATHER = call('get_weather', 0, '{"city": "Paris"}');
const cases = {
  plainText: 'The weather in Paris is mild today.',
  singleCall: section(VALID_WEATHER),
  parallelWithText:
    'Let me check both. ' +
    section(
      call('get_weather', 0, '{"city": "Paris", "unit": "c"}'),
      call('search', 1, '{"q": "paris events", "top_k": 3}'),
      call('now', 2, '{}'),
    ),
  hallucinatedName: section(call('img_gen', 0, '{"prompt": "a cat"}')),
  wrongEnum: section(call('get_weather', 0, '{"city": "Paris", "unit": "kelvin"}')),
  wrongType: section(call('search', 0, '{"q": "x", "top_k": "3"}')),
  missingRequired: section(call('get_weather', 0, '{"unit": "c"}')),
  idWithoutPrefix: section('<|tool_call_begin|>get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>'),
  newlineAfterCallBegin: section(
    '<|tool_call_begin|>\nfunctions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>',
  ),
  textBetweenCalls: section(VALID_WEATHER + ' then ' + call('search', 1, '{"q": "x"}')),
  callOutsideSection: 'Calling now ' + VALID_WEATHER,
  thinkMarkerInText: 'Sure <think>',
  unterminatedCall: section().slice(0, 28) + call('get_weather', 0, '{"city": "Paris"}').slice(0, -17),
} as const;

type Case = keyof typeof cases;

async function verdicts(g: CompiledGrammar, names: readonly Case[]): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const n of names) out[n] = await grammarAccepts(g, cases[n]);
  return out;
}

test('xgrammar-kimi auto: the built-in tag semantics (DESIGN §6)', async () => {
  const g = await compileKimiGrammar(TOOLS, 'auto');
  assert.equal(g.route, 'patched-ebnf');
  assert.deepStrictEqual(await verdicts(g, Object.keys(cases) as Case[]), {
    plainText: true,
    singleCall: true,
    parallelWithText: true,
    hallucinatedName: false,
    wrongEnum: false,
    wrongType: false,
    missingRequired: false,
    idWithoutPrefix: false,
    newlineAfterCallBegin: false,
    textBetweenCalls: false,
    callOutsideSection: false,
    thinkMarkerInText: false,
    unterminatedCall: false,
  });
  // Text after the section is free text again (loop after dispatch), as in xgrammar.
  assert.equal(await grammarAccepts(g, section(VALID_WEATHER) + ' Done.'), true);
});

test('required and named force the section; named allows one call of that tool only', async () => {
  const required = await compileKimiGrammar(TOOLS, 'required');
  assert.deepStrictEqual(await verdicts(required, ['plainText', 'singleCall', 'hallucinatedName', 'textBetweenCalls']), {
    plainText: false,
    singleCall: true,
    hallucinatedName: false,
    textBetweenCalls: false,
  });
  assert.equal(await grammarAccepts(required, section(VALID_WEATHER, call('search', 1, '{"q": "x"}'))), true);
  assert.equal(await grammarAccepts(required, section()), false, 'at least one call');
  const named = await compileKimiGrammar(TOOLS, NAMED);
  assert.equal(named.route, 'direct');
  assert.equal(await grammarAccepts(named, cases.singleCall), true);
  assert.equal(await grammarAccepts(named, section(call('search', 0, '{"q": "x"}'))), false);
  assert.equal(await grammarAccepts(named, section(VALID_WEATHER, VALID_WEATHER)), false);
});

test('tool_choice none: any text but the think markers', async () => {
  const g = await compileKimiGrammar(TOOLS, 'none');
  assert.equal(await grammarAccepts(g, cases.plainText), true);
  assert.equal(await grammarAccepts(g, cases.hallucinatedName), true);
  assert.equal(await grammarAccepts(g, 'a </think> b'), false);
});

test('pr36891 shape: calls without a section wrapper; prefix and schema still enforced', async () => {
  const g = await compileKimiGrammar(TOOLS, 'auto', { shape: 'pr36891' });
  assert.deepStrictEqual(
    await verdicts(g, [
      'plainText',
      'singleCall',
      'callOutsideSection',
      'textBetweenCalls',
      'hallucinatedName',
      'wrongEnum',
      'idWithoutPrefix',
      'newlineAfterCallBegin',
    ]),
    {
      plainText: true,
      singleCall: true,
      callOutsideSection: true,
      textBetweenCalls: true,
      hallucinatedName: false,
      wrongEnum: false,
      idWithoutPrefix: false,
      newlineAfterCallBegin: false,
    },
  );
});

test('every shape compiles; the root is found by structure; the sentinel is gone', async () => {
  const choices: ToolChoice[] = ['auto', 'required', NAMED, 'none'];
  for (const choice of choices) {
    const tag = buildKimiStructuralTag(TOOLS, choice);
    const { ebnf, root } = await structuralTagToEbnf(tag);
    assert.ok(!ebnf.includes('\\x01SEP\\x01'), `sentinel left in ${JSON.stringify(choice)}`);
    const rules = parseRules(ebnf);
    const referenced = new Set(rules.flatMap((r) => [...referencedNames(r.body)].filter((n) => n !== r.name)));
    assert.ok(!referenced.has(root), `${root} is not referenced`);
  }
  // The JSON-schema and regex sub-grammars have their own `root`: not the structural tag's root.
  const rules = parseRules(
    'root ::= ((root_1))\nroot_1 ::= (([0-9] root_1) | ([0-9]))\nseq ::= ((root "x"))\nroot_2 ::= ((triggered_tags))\ntriggered_tags ::= ((seq))\n',
  );
  assert.equal(findRootRule(rules, 'triggered_tags').name, 'root_2');
});

test("compiled grammars are cached by (tools, tool_choice, shape); the order of a schema's properties makes another grammar", async () => {
  const a = await compileKimiGrammar(TOOLS, 'auto');
  const b = await compileKimiGrammar(JSON.parse(JSON.stringify(TOOLS)), 'auto');
  assert.equal(a.compiled, b.compiled, 'compiled once');
  const reordered = TOOLS.map((t) => ({ function: t.function, type: t.type }));
  assert.equal((await compileKimiGrammar(reordered, 'auto')).key, (await compileKimiGrammar(TOOLS, undefined)).key);
  assert.notEqual((await compileKimiGrammar(TOOLS, 'auto')).key, (await compileKimiGrammar(TOOLS, 'auto', { shape: 'pr36891' })).key);
  assert.notEqual((await compileKimiGrammar(TOOLS, 'auto')).key, (await compileKimiGrammar(TOOLS, 'required')).key);
  // The grammar requires properties in their declared order: a schema that declares them the other way round is
  // another grammar, whichever of the two was compiled first.
  const search = (properties: JsonObject): ChatTool[] => [
    { type: 'function' as const, function: { name: 'search', parameters: { type: 'object', properties, required: ['query'] } } },
  ];
  const queryFirst = await compileKimiGrammar(search({ query: { type: 'string' }, top_k: { type: 'integer' } }), 'auto');
  const topKFirst = await compileKimiGrammar(search({ top_k: { type: 'integer' }, query: { type: 'string' } }), 'auto');
  const completion = (args: string) => section(call('search', 0, args));
  assert.ok(await grammarAccepts(queryFirst, completion('{"query": "x", "top_k": 3}')));
  assert.ok(await grammarAccepts(topKFirst, completion('{"top_k": 3, "query": "x"}')));
  assert.ok(!(await grammarAccepts(topKFirst, completion('{"query": "x", "top_k": 3}'))));
});

test('a regex xgrammar refuses is reported, not passed to the WASM module (which would abort)', async () => {
  const tag = buildKimiStructuralTag(
    [
      {
        type: 'function',
        function: { name: 'f', parameters: { type: 'object', properties: { s: { type: 'string', pattern: '^(?!x)[a-z]+$' } } } },
      },
    ],
    'auto',
  );
  await assert.rejects(compileStructuralTag(tag), (err: unknown) => err instanceof UnsupportedRegexError && /lookahead/.test(err.message));
});
