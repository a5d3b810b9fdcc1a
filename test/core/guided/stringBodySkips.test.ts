/**
 * The string bodies the markup-only feed leaves out (stringBodySkips.ts): the rule the proof rests on, as the real
 * web-xgrammar compiles it; every character and escape, left out exactly when the rule takes it; and generated
 * completions with long string arguments (escapes, unicode, bad escapes, control characters, markup inside) under
 * bare, constrained and doubtful schemas, where the markup-only feed gives the whole-text feed's verdict, anchor, words
 * and allowed set, and leaves most of the characters out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { whatIf, grammarStartOf } from '../../../src/core/guided/whatIf.ts';
import { feedMarkupOnly, markupPlan } from '../../../src/core/guided/markupFeed.ts';
import { bodySkips, MIN_BODY_CHARS } from '../../../src/core/guided/stringBodySkips.ts';
import { tagExcludes } from '../../../src/core/guided/tagTools.ts';
import { compileFormatGrammar, grammarAccepts, newMatcher, type CompiledGrammar } from '../../../src/core/guided/xgrammar.ts';
import type { XgMatcher } from '../../../src/core/guided/xgrammarModule.ts';
import { getFormat } from '../../../src/core/formats/registry.ts';
import type { ChatTool, JsonObject } from '../../../src/core/trace/record.ts';
import { GUIDED_CASES } from '../../fixtures/guided/index.ts';
import { seededRandom } from '../../../bench/seededRandom.ts';

/** The formats whose tags write a call's arguments as JSON after a trigger (tool_choice auto). */
const JSON_FORMATS = ['kimi_k2', 'hermes', 'llama', 'deepseek_v31', 'mistral'] as const;
/** The arguments of every JSON format's clean case: generated arguments take their place. */
const CLEAN_ARGUMENTS = '{"city": "Paris", "days": 3}';

const toolWith = (parameters: JsonObject, strict?: boolean): ChatTool[] => [
  { type: 'function', function: { name: 'get_weather', parameters, ...(strict === undefined ? {} : { strict }) } },
];

/** A bare `city`, a constrained one, or one the walk must doubt; the same other parameters. */
function schemaOf(city: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    type: 'object',
    properties: {
      city,
      days: { type: 'integer', minimum: 1, maximum: 20 },
      note: { type: 'string', description: 'free words' },
      tags: { type: 'array', items: { type: 'string' } },
      place: {
        type: 'object',
        properties: { name: { type: 'string' }, code: { type: 'string', enum: ['FR', 'DE'] } },
        additionalProperties: false,
      },
      format: { type: 'string' },
    },
    required: ['city', 'days'],
    additionalProperties: false,
    ...extra,
  };
}

const SCHEMAS: Array<{ label: string; tools: ChatTool[] }> = [
  { label: 'bare', tools: toolWith(schemaOf({ type: 'string', title: 'City' })) },
  { label: 'minLength', tools: toolWith(schemaOf({ type: 'string', minLength: 3 })) },
  { label: 'maxLength', tools: toolWith(schemaOf({ type: 'string', maxLength: 40 })) },
  { label: 'pattern', tools: toolWith(schemaOf({ type: 'string', pattern: '^[^0-9]*$' })) },
  { label: 'enum', tools: toolWith(schemaOf({ type: 'string', enum: ['Paris', 'Berlin "Mitte"'] })) },
  { label: 'format', tools: toolWith(schemaOf({ type: 'string', format: 'email' })) },
  { label: 'anyOf', tools: toolWith(schemaOf({ anyOf: [{ type: 'string' }, { type: 'integer' }] })) },
  { label: 'type list', tools: toolWith(schemaOf({ type: ['string', 'null'] })) },
  { label: 'additionalProperties true', tools: toolWith(schemaOf({ type: 'string' }, { additionalProperties: true })) },
  {
    label: 'additionalProperties schema',
    tools: toolWith(schemaOf({ type: 'string' }, { additionalProperties: { type: 'string', minLength: 2 } })),
  },
  { label: 'not strict (any JSON)', tools: toolWith(schemaOf({ type: 'string' }), false) },
];

async function grammarOf(format: string, tools: ChatTool[]): Promise<CompiledGrammar> {
  return compileFormatGrammar(getFormat(format).guided!, tools, 'auto');
}

/** The characters the markup-only feed hands the matcher for a completion (a matcher that counts them). */
async function fedCharacters(grammar: CompiledGrammar, text: string): Promise<number> {
  const plan = markupPlan(grammar.tag);
  assert.ok(plan);
  const inner = await newMatcher(grammar);
  let chars = 0;
  const matcher: XgMatcher = {
    ...inner,
    acceptString: (s) => {
      chars += s.length;
      return inner.acceptString(s);
    },
  };
  try {
    await feedMarkupOnly(matcher, grammar.vocabulary, tagExcludes(grammar.tag), plan, text, grammarStartOf(text, 'skip') ?? 0, text.length);
  } finally {
    inner.dispose();
  }
  return chars;
}

async function sameBothWays(grammar: CompiledGrammar, text: string, label: string, finishReason = 'stop'): Promise<boolean> {
  const completion = { text, tokens: [], finishReason };
  const markup = await whatIf(grammar, completion, { feed: 'markup' });
  const whole = await whatIf(grammar, completion, { feed: 'whole' });
  assert.deepEqual(markup, whole, `${label}: ${JSON.stringify(text).slice(0, 2000)}`);
  return whole.accepted;
}

test('the rule the proof rests on: a bare string is basic_string, as web-xgrammar compiles it', async () => {
  const grammar = await grammarOf('kimi_k2', SCHEMAS[0]!.tools);
  const rules = new Map(grammar.ebnf.split('\n').map((line) => [line.slice(0, line.indexOf(' ::= ')), line] as const));
  assert.equal(rules.get('basic_escape'), 'basic_escape ::= (([\\"\\\\/bfnrt]) | ("u" [A-Fa-f0-9] [A-Fa-f0-9] [A-Fa-f0-9] [A-Fa-f0-9]))');
  assert.equal(
    rules.get('basic_string_sub'),
    'basic_string_sub ::= (("\\"") | ([^\\0-\\x1f\\"\\\\\\r\\n] basic_string_sub) | ("\\\\" basic_escape basic_string_sub)) (=([ \\n\\t]* [,}\\]:]))',
  );
  assert.equal(rules.get('basic_string'), 'basic_string ::= (("\\"" basic_string_sub))');
  // `city` (titled), `note` (described), `name` in `place`, the items of `tags`: all of them basic_string.
  assert.match(grammar.ebnf, /"\\"city\\"" \[ \\n\\t\]\* ":" \[ \\n\\t\]\* basic_string /);
  assert.match(grammar.ebnf, /"\\"note\\"" \[ \\n\\t\]\* ":" \[ \\n\\t\]\* basic_string\b/);
  assert.match(grammar.ebnf, /"\\"name\\"" \[ \\n\\t\]\* ":" \[ \\n\\t\]\* basic_string\b/);
  assert.match(grammar.ebnf, /"\[" \[ \\n\\t\]\* basic_string /);
  // Without additionalProperties (strict, as the tag compiles): no other key than the declared ones.
  const loose = await grammarOf('kimi_k2', toolWith({ type: 'object', properties: { city: { type: 'string' } } }));
  const call = (args: string) =>
    `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>${args}<|tool_call_end|><|tool_calls_section_end|>`;
  assert.equal(await grammarAccepts(loose, call('{"city": "x"}'), { complete: true }), true);
  assert.equal(await grammarAccepts(loose, call('{"city": "x", "town": "y"}'), { complete: true }), false);
});

test('every character and escape: a body is left out exactly when the real matcher takes it', async () => {
  const grammar = await grammarOf('kimi_k2', SCHEMAS[0]!.tools);
  const plan = markupPlan(grammar.tag)?.bodies;
  assert.ok(plan);
  // Long enough to be left out (MIN_BODY_CHARS).
  const pad = 'x'.repeat(MIN_BODY_CHARS);
  const call = (city: string) =>
    `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "a${city}${pad}", "days": 3}<|tool_call_end|><|tool_calls_section_end|>`;
  const bodies: string[] = [];
  for (let c = 0; c < 0x80; c++) if (c !== 0x22 && c !== 0x5c) bodies.push(String.fromCharCode(c));
  bodies.push(
    'é',
    '😀',
    '\u2028',
    '\u0085',
    '\uffff',
    '\u00a0',
    '中文',
    '<|tool_call_end|>',
    '<|tool_calls_section_begin|>',
    '<|tool_calls_section_end|>',
    '<think>',
  );
  for (const e of '"\\/bfnrt') bodies.push(`\\${e}`);
  bodies.push('\\u00e9', '\\uD83D\\uDE00', '\\ud800', '\\uDFFF', '\\uABCD', '\\u0000');
  bodies.push('\\x41', "\\'", '\\u12', '\\u12G4', '\\U0041', '\\a', '\\0', '\\\n', '\\ ', '\\');
  let left = 0;
  for (const body of bodies) {
    const text = call(body);
    const accepted = await grammarAccepts(grammar, text, { complete: true });
    const skips = bodySkips(plan, text, 0, text.length);
    assert.equal(skips.length === 1, accepted, `${JSON.stringify(body)}: accepted ${accepted}, left out ${skips.length}`);
    if (accepted) {
      left++;
      assert.equal(text.slice(skips[0]!.start, skips[0]!.end), `a${body}${pad}`);
    }
    await sameBothWays(grammar, `Some words first. ${text}`, JSON.stringify(body));
  }
  assert.ok(left > 100, `${left} bodies left out`);
});

test('the guard’s premise: in free text the output may end, whatever part of a trigger was written last', async () => {
  for (const format of JSON_FORMATS) {
    const grammar = await grammarOf(format, GUIDED_CASES[format]!.tools);
    const plan = markupPlan(grammar.tag);
    assert.ok(plan, format);
    for (const p of plan.patterns) {
      for (let k = 0; k < p.length; k++) {
        for (const before of ['', 'words ', p.slice(0, k)]) {
          const text = `${before}${p.slice(0, k)}`;
          assert.equal(await grammarAccepts(grammar, text, { complete: true }), true, `${format}: ${JSON.stringify(text)}`);
        }
      }
    }
  }
});

const random = seededRandom;

/** A string body: words, long prose, escapes, unicode, markup; now and then a bad escape or a raw control character. */
function body(next: () => number, markup: readonly string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const good = [
    'Paris',
    ' ',
    'é',
    '😀',
    '中',
    '\u2028',
    '\\"',
    '\\\\',
    '\\/',
    '\\n',
    '\\t',
    '\\u00e9',
    '\\ud83d\\ude00',
    '\\uD800',
    ',',
    '}',
    ']',
    ':',
    "'",
    '{',
    '\u007f',
  ];
  const bad = ['\\x', '\\u12G4', "\\'", '\n', '\t', '\u0001', '\\U0041', '\ud800'];
  const parts: string[] = [];
  const n = Math.floor(next() * 12);
  for (let i = 0; i < n; i++) {
    const kind = next();
    if (kind < 0.55) parts.push(pick(good));
    else if (kind < 0.7) parts.push('the forecast for the coming days in Paris and around it '.repeat(1 + Math.floor(next() * 40)));
    else if (kind < 0.85 && markup.length) parts.push(pick(markup));
    else if (kind < 0.93) parts.push(pick(bad));
    else parts.push(pick(good).repeat(1 + Math.floor(next() * 5)));
  }
  return parts.join('');
}

/** Arguments for the weather tool: declared and undeclared keys, nested values, strings from `body`, odd spacing. */
function argumentsText(next: () => number, markup: readonly string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const str = () => `"${body(next, markup)}"`;
  const space = () => pick(['', ' ', ' ', '\n  ', '\t']);
  const members: string[] = [`"city":${space()}${next() < 0.9 ? str() : pick(['3', 'null', '"Paris"', '"Berlin \\"Mitte\\""'])}`];
  if (next() < 0.9) members.push(`"days": ${pick(['3', '20', '99', '"3"'])}`);
  if (next() < 0.4) members.push(`"note": ${str()}`);
  if (next() < 0.3) members.push(`"tags": [${Array.from({ length: Math.floor(next() * 3) }, str).join(`,${space()}`)}]`);
  if (next() < 0.3) members.push(`"place": {"name": ${str()}${next() < 0.5 ? `, "code": "${pick(['FR', 'XX'])}"` : ''}}`);
  if (next() < 0.2) members.push(`"format": ${str()}`);
  if (next() < 0.15) members.push(`${pick(['"extra"', '"ci\\u0074y"', '"note\\""'])}: ${str()}`);
  if (next() < 0.1) members.reverse();
  return `{${space()}${members.join(`,${space()}`)}${space()}}`;
}

test('generated completions: long string arguments under bare, constrained and doubtful schemas — the whole-text feed’s result', async () => {
  // Another seed or more completions: TOOLSCOPE_PROPERTY_SEED, TOOLSCOPE_PROPERTY_RUNS.
  const seed = Number(process.env.TOOLSCOPE_PROPERTY_SEED ?? 3906);
  const runs = Number(process.env.TOOLSCOPE_PROPERTY_RUNS ?? 400) / 10;
  let accepted = 0;
  let rejected = 0;
  let chars = 0;
  let fed = 0;
  for (const format of JSON_FORMATS) {
    const c = GUIDED_CASES[format]!;
    assert.ok(c.clean.includes(CLEAN_ARGUMENTS), format);
    for (const [s, { label, tools }] of SCHEMAS.entries()) {
      const grammar = await grammarOf(format, tools);
      const plan = markupPlan(grammar.tag);
      assert.ok(plan, `${format} ${label}`);
      const markup = [...plan.patterns, ...plan.ends, '<|im_end|>'];
      const next = random(seed + s * 31 + format.length);
      for (let i = 0; i < runs; i++) {
        const calls = Array.from({ length: 1 + Math.floor(next() * 2) }, () =>
          c.clean.replace(CLEAN_ARGUMENTS, argumentsText(next, markup)),
        );
        let text = `${'Prose before the call. '.repeat(Math.floor(next() * 4))}${calls.join('Between the calls. ')}${next() < 0.5 ? ' And after.' : ''}`;
        if (next() < 0.15) text = text.slice(0, Math.floor(next() * text.length));
        const finish = next() < 0.2 ? 'length' : 'stop';
        const ok = await sameBothWays(grammar, text, `${format} ${label} #${i} (seed ${seed}, ${finish})`, finish);
        if (ok) accepted++;
        else rejected++;
        // What an accepted completion costs the matcher under the bare schema.
        if (ok && label === 'bare') {
          chars += text.length;
          fed += await fedCharacters(grammar, text);
        }
      }
    }
  }
  assert.ok(accepted > 50 && rejected > 50, `accepted ${accepted}, rejected ${rejected}`);
  // The bare strings were left out, or the comparison proved less than it says.
  assert.ok(fed < chars / 3, `fed ${fed} of ${chars} characters of the accepted completions under the bare schema`);
});
