import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import {
  ARGUMENT_BEGIN as ARG,
  CALL_BEGIN as CB,
  CALL_END as CE,
  SECTION_BEGIN as SB,
  SECTION_END as SE,
} from '../../../../../src/core/formats/kimiK2/kimiK2Markers.ts';
import { FIRST_PSEUDO_ID, planDeltas, pseudoTokenize } from '../../../../../src/core/formats/kimiK2/vllm/vllmDeltas.ts';
import type { VllmDeltaMessage, VllmExtraction, VllmGeneration } from '../../../../../src/core/formats/kimiK2/vllm/vllmProfile.ts';
import { VLLM_GENERATIONS, VLLM_PROFILES } from '../../../../../src/core/formats/kimiK2/vllm/vllmProfiles.ts';
import { expected, groupingOf, readOutputs, readVectors, replay, sharedPresent, VECTOR_SETS } from './recordedVectors.ts';

const ABSENT = '../shared not present: the recorded vLLM vectors are not checked';

// ---- recorded vectors (../shared/data/vllm-kimi) -------------------------------------------------

for (const gen of VLLM_GENERATIONS) {
  test(`generation ${gen} reproduces every recorded vector exactly`, (t) => {
    if (!sharedPresent()) {
      t.skip(ABSENT);
      return;
    }
    const profile = VLLM_PROFILES[gen];
    const failures: string[] = [];
    let total = 0;
    for (const set of VECTOR_SETS) {
      const vectors = readVectors(set);
      for (const recorded of readOutputs(set, gen)) {
        total++;
        const vector = vectors.find((v) => v.name === recorded.name);
        assert.ok(vector, `${set}/${recorded.name}: no vector`);
        const got = replay(profile, vector, recorded);
        const want = expected(recorded, profile);
        const bad: string[] = [];
        got.stream.forEach((d, i) => {
          if (!isDeepStrictEqual(d, want.stream[i])) bad.push(`delta ${i}: ${JSON.stringify(d)} ≠ ${JSON.stringify(want.stream[i])}`);
        });
        if (got.stream.length !== want.stream.length) bad.push(`${got.stream.length} deltas ≠ ${want.stream.length}`);
        if (!isDeepStrictEqual(got.finish, want.finish)) bad.push(`finish: ${JSON.stringify(got.finish)} ≠ ${JSON.stringify(want.finish)}`);
        if (recorded.nonstream && !isDeepStrictEqual(got.nonstream, recorded.nonstream)) {
          bad.push(`non-streaming: ${JSON.stringify(got.nonstream)} ≠ ${JSON.stringify(recorded.nonstream)}`);
        }
        if (bad.length) failures.push(`${set}/${recorded.name}\n  ${bad.join('\n  ')}`);
      }
    }
    t.diagnostic(`generation ${gen}: ${total - failures.length} of ${total} vectors match`);
    assert.deepEqual(failures, []);
  });
}

test('the delta plans reproduce the recorded groupings of text vectors', (t) => {
  if (!sharedPresent()) {
    t.skip(ABSENT);
    return;
  }
  for (const set of VECTOR_SETS) {
    const outputs = readOutputs(set, 'A');
    for (const v of readVectors(set)) {
      if (v.text === undefined) continue;
      const plan = planDeltas(pseudoTokenize(v.text), groupingOf(v));
      const recorded = outputs.find((o) => o.name === v.name)?.deltas;
      assert.deepEqual(
        plan.deltas.map((d) => d.text),
        recorded,
        `${set}/${v.name}`,
      );
    }
  }
});

// ---- own vectors: the documented behaviour, pinned without ../shared --------------------------------

interface Fixture {
  name: string;
  deltas: string[];
  stream: Partial<Record<VllmGeneration, Array<VllmDeltaMessage | null>>>;
  /** Generation C's finish() result, when it is not null. */
  finishC?: VllmDeltaMessage;
  extract?: Partial<Record<VllmGeneration, VllmExtraction>>;
}

const call = (index: number, id: string, name: string, args?: string): VllmDeltaMessage => ({
  tool_calls: [{ index, id, type: 'function', function: args === undefined ? { name } : { name, arguments: args } }],
});
const args = (index: number, a: string): VllmDeltaMessage => ({ tool_calls: [{ index, function: { arguments: a } }] });
const content = (c: string): VllmDeltaMessage => ({ content: c });

const FIXTURES: Fixture[] = [
  {
    name: 'a call that begins and ends in one delta',
    deltas: ['Hi! ', SB, `${CB}functions.f:0${ARG}{"a": 1}${CE}`, SE],
    stream: {
      A: [content('Hi! '), content(''), null, content('')],
      // B sends the name and the arguments as two entries of one delta.
      B: [
        content('Hi! '),
        null,
        {
          tool_calls: [
            { index: 0, type: 'function', id: 'functions.f:0', function: { name: 'f' } },
            { index: 0, function: { arguments: '{"a": 1}' } },
          ],
        },
        null,
      ],
      C: [content('Hi! '), null, call(0, 'functions.f:0', 'f', '{"a": 1}'), null],
    },
  },
  {
    name: 'content and a whole call in one delta',
    deltas: [`Hi! ${SB}${CB}functions.f:0${ARG}{"a": 1}${CE}${SE}`],
    stream: {
      // A: the counts balance within the delta and there is no earlier call to close: nothing at all.
      A: [null],
      C: [{ content: 'Hi! ', ...call(0, 'functions.f:0', 'f', '{"a": 1}') }],
    },
  },
  {
    name: 'arguments with a newline',
    deltas: ['Q ', SB, CB, 'functions.f:0', ARG, '{\n', '"a": 1', '}', CE, SE],
    stream: {
      A: [content('Q '), content(''), null, call(0, 'functions.f:0', 'f'), null, args(0, '{'), null, null, null, content('')],
      B: [content('Q '), null, null, null, call(0, 'functions.f:0', 'f'), args(0, '{\n'), args(0, '"a": 1'), args(0, '}'), null, null],
      C: [content('Q '), null, null, null, null, call(0, 'functions.f:0', 'f', '{\n'), args(0, '"a": 1'), null, args(0, '}'), null],
    },
  },
  {
    name: 'a newline right after the call begin',
    deltas: ['Q ', SB, CB, '\nfunctions.f:0', ARG, '{"a": 1}', CE, SE],
    stream: {
      A: [content('Q '), content(''), null, null, null, null, null, content('')],
      C: [content('Q '), null, null, null, null, call(0, 'functions.f:0', 'f', '{"a": 1'), args(0, '}'), null],
    },
    extract: { A: { tools_called: true, content: 'Q ', tool_calls: [{ id: 'functions.f:0', name: 'f', arguments: '{"a": 1}' }] } },
  },
  {
    name: 'a two-digit call index split across deltas',
    deltas: ['Q ', SB, CB, 'functions.f:1', '0', ARG, '{"a": 1}', CE, SE],
    stream: {
      A: [content('Q '), content(''), null, call(0, 'functions.f:1', 'f'), null, null, args(0, '{"a": 1}'), null, content('')],
      B: [content('Q '), null, null, null, null, call(0, 'functions.f:10', 'f'), args(0, '{"a": 1}'), null, null],
    },
  },
  {
    name: 'text after the section end',
    deltas: ['Q ', SB, CB, 'functions.f:0', ARG, '{"a": 1}', CE, SE, ' after'],
    stream: {
      A: [content('Q '), content(''), null, call(0, 'functions.f:0', 'f'), null, args(0, '{"a": 1}'), null, content(''), content(' after')],
      B: [content('Q '), null, null, null, call(0, 'functions.f:0', 'f'), args(0, '{"a": 1}'), null, null, null],
      C: [content('Q '), null, null, null, null, call(0, 'functions.f:0', 'f', '{"a": 1'), args(0, '}'), null, null],
    },
  },
  {
    name: 'a section marker split across deltas as text',
    deltas: ['abc <|tool_calls_sec', 'tion_begin|>', CB, 'functions.f:0', ARG, '{"a": 1}', CE, SE],
    stream: {
      A: [content('abc <|tool_calls_sec'), content(''), null, call(0, 'functions.f:0', 'f'), null, args(0, '{"a": 1}'), null, content('')],
      B: [content('abc '), null, null, null, call(0, 'functions.f:0', 'f'), args(0, '{"a": 1}'), null, null],
      // By token id only: the text-spelled section begin leaves every later marker as content.
      C: [content('abc '), content(SB), content(CB), content('functions.f:0'), content(ARG), content('{"a": 1}'), content(CE), content(SE)],
    },
  },
  {
    name: 'a partial marker at the end of the stream',
    deltas: ['Hi <|tool_c'],
    stream: { A: [content('Hi <|tool_c')], B: [content('Hi ')], C: [content('Hi ')] },
    finishC: content('<|tool_c'),
  },
  {
    name: 'a header without name:digit',
    deltas: ['Q ', SB, CB, 'functions.bad.0', ARG, '{}', CE, CB, 'functions.ok:1', ARG, '{"b": 2}', CE, SE],
    stream: {
      B: [content('Q '), null, null, null, null, null, null, null, null, null, null, null, null],
      C: [
        content('Q '),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        call(1, 'functions.ok:1', 'ok', '{"b": 2'),
        args(1, '}'),
        null,
      ],
    },
  },
  {
    // Generation C reads the arguments of a call with no usable header character by character, for a name: the
    // chunk that completes one (right after a held top-level bracket here) goes out with its announcement.
    name: 'a name found in the arguments, after a held bracket',
    deltas: ['Q ', SB, CB, ARG, '{"x": 1}', '}, "name": "f:1', '", "y": [1]}', CE, SE],
    stream: {
      C: [content('Q '), null, null, null, null, null, call(0, 'f:1', 'f', '", "y": [1'), args(0, ']}'), null],
    },
    extract: {
      C: { tools_called: true, content: 'Q ', tool_calls: [{ id: 'f:1', name: 'f', arguments: '{"x": 1}}, "name": "f:1", "y": [1]}' }] },
    },
  },
  {
    name: 'a header that does not parse, then a name in the arguments',
    deltas: ['Q ', SB, CB, 'functions.bad.0', ARG, '{"a": {"b": "}"}}', ', "name": "g:2"}', CE, SE],
    stream: {
      C: [content('Q '), null, null, null, null, null, call(0, 'g:2', 'g', '"'), args(0, '}'), null],
    },
    extract: {
      C: { tools_called: true, content: 'Q ', tool_calls: [{ id: 'g:2', name: 'g', arguments: '{"a": {"b": "}"}}, "name": "g:2"}' }] },
    },
  },
  {
    name: 'a call without argument text',
    deltas: ['Q ', SB, CB, 'functions.f:0', ARG, CE, SE],
    stream: { C: [content('Q '), null, null, null, null, call(0, 'functions.f:0', 'f', ''), null] },
    extract: {
      B: { tools_called: true, content: 'Q ', tool_calls: [{ id: 'functions.f:0', name: 'f', arguments: '' }] },
      C: { tools_called: true, content: 'Q ', tool_calls: [{ id: 'functions.f:0', name: 'f', arguments: '{}' }] },
    },
  },
  {
    name: 'whitespace-only content before the calls',
    deltas: ['\n\n', SB, CB, 'functions.f:0', ARG, '{"a": [1, 2]}', CE, SE],
    stream: { C: [null, null, null, null, null, call(0, 'functions.f:0', 'f', '{"a": [1, 2]'), args(0, '}'), null] },
    extract: { C: { tools_called: true, content: null, tool_calls: [{ id: 'functions.f:0', name: 'f', arguments: '{"a": [1, 2]}' }] } },
  },
  {
    name: '</think> in content',
    deltas: ['Hi', '</think>', ' there'],
    stream: { A: [content('Hi'), content('</think>'), content(' there')], C: [content('Hi'), null, content(' there')] },
  },
  {
    name: 'a dotted tool name and an unterminated call',
    deltas: ['X ', SB, CB, 'functions.web.search:0', ARG, '{"q": "x"}', CE, CB, 'functions.f:1', ARG, '{"a": '],
    stream: {},
    extract: {
      A: { tools_called: true, content: 'X ', tool_calls: [{ id: 'functions.web.search:0', name: 'search', arguments: '{"q": "x"}' }] },
      C: {
        tools_called: true,
        content: 'X ',
        tool_calls: [
          { id: 'functions.web.search:0', name: 'web.search', arguments: '{"q": "x"}' },
          { id: 'functions.f:1', name: 'f', arguments: '{"a":' },
        ],
      },
    },
  },
  {
    name: 'the singular section spelling',
    deltas: [`S ${SB.replace('calls', 'call')}`, CB, 'functions.f:0', ARG, '{"a": "b"}', CE, SE.replace('calls', 'call')],
    stream: {
      A: [content(''), null, call(0, 'functions.f:0', 'f'), null, args(0, '{"a": "b"}'), null, content('')],
      B: [
        content('S <|tool_call_section_begin|>'),
        content(CB),
        content('functions.f:0'),
        content(ARG),
        content('{"a": "b"}'),
        content(CE),
        content('<|tool_call_section_end|>'),
      ],
    },
    extract: {
      A: {
        tools_called: false,
        content: `S <|tool_call_section_begin|>${CB}functions.f:0${ARG}{"a": "b"}${CE}<|tool_call_section_end|>`,
        tool_calls: [],
      },
    },
  },
];

for (const fx of FIXTURES) {
  test(`own vector: ${fx.name}`, () => {
    const text = fx.deltas.join('');
    const plan = planDeltas(pseudoTokenize(text), { kind: 'recorded', texts: fx.deltas });
    for (const gen of VLLM_GENERATIONS) {
      const profile = VLLM_PROFILES[gen];
      const want = fx.stream[gen];
      if (want) {
        const parser = profile.createStreamParser({ decodeToken: plan.decodeToken });
        assert.deepEqual(
          plan.deltas.map((d) => parser.push(d.text, d.ids)),
          want,
          `generation ${gen}`,
        );
        assert.deepEqual(parser.finish(), gen === 'C' ? (fx.finishC ?? null) : null, `generation ${gen} finish`);
      }
      const extraction = fx.extract?.[gen];
      if (extraction) assert.deepEqual(profile.extract(text), extraction, `generation ${gen} non-streaming`);
    }
  });
}

test('generation A dumps a section longer than 8192 characters into content', () => {
  const long = 'x'.repeat(9000);
  const parser = VLLM_PROFILES.A.createStreamParser();
  const plan = planDeltas(pseudoTokenize(`Q ${SB}${long}`), { kind: 'specials' });
  assert.deepEqual(
    plan.deltas.map((d) => parser.push(d.text, d.ids)),
    [content('Q '), content(''), content(long)],
  );
});

test('generation C places special tokens without a decode table too', () => {
  const deltas = ['Q ', `${SB}${CB}functions.f:0${ARG}{"a": 1}${CE}${SE}`];
  const plan = planDeltas(pseudoTokenize(deltas.join('')), { kind: 'recorded', texts: deltas });
  const parser = VLLM_PROFILES.C.createStreamParser();
  assert.deepEqual(
    plan.deltas.map((d) => parser.push(d.text, d.ids)),
    [content('Q '), call(0, 'functions.f:0', 'f', '{"a": 1}')],
  );
});

// ---- delta plans -------------------------------------------------------------------------------------

test('pseudo-tokens: special tokens with their real ids, other text at word/space/punctuation', () => {
  assert.deepEqual(pseudoTokenize(`Hi, there${CB}f:0 <|x|>`), [
    { text: 'Hi' },
    { text: ',' },
    { text: ' ' },
    { text: 'there' },
    { text: CB, id: 163597 },
    { text: 'f' },
    { text: ':' },
    { text: '0' },
    { text: ' ' },
    { text: '<' },
    { text: '|' },
    { text: 'x' },
    { text: '|' },
    { text: '>' },
  ]);
});

test('delta plans: N tokens per delta, at special tokens, or as recorded', () => {
  const tokens = pseudoTokenize(`Hi there${SB}${CB}f:0`);
  const perTwo = planDeltas(tokens, { kind: 'tokens', perDelta: 2 });
  assert.deepEqual(
    perTwo.deltas.map((d) => d.text),
    ['Hi ', `there${SB}`, `${CB}f`, ':0'],
  );
  assert.deepEqual(perTwo.deltas[1]?.ids, [FIRST_PSEUDO_ID + 2, 163595]);
  assert.equal(perTwo.decodeToken(FIRST_PSEUDO_ID + 2), 'there');
  assert.deepEqual(
    planDeltas(tokens, { kind: 'specials' }).deltas.map((d) => d.text),
    ['Hi there', SB, CB, 'f:0'],
  );
  // A boundary inside a special token leaves its pieces as plain text.
  const recorded = planDeltas(tokens, { kind: 'recorded', texts: ['Hi there<|tool_calls_sec', `tion_begin|>${CB}f:0`] });
  assert.ok(recorded.deltas.every((d) => !d.ids.includes(163595)));
  assert.ok(recorded.deltas[1]?.ids.includes(163597));
  // Same text, same pseudo id; recorded ids are kept.
  const kept = planDeltas([{ text: 'a' }, { text: 'a' }, { text: 'b', id: 42 }], { kind: 'tokens', perDelta: 1 });
  assert.deepEqual(
    kept.deltas.map((d) => d.ids[0]),
    [FIRST_PSEUDO_ID, FIRST_PSEUDO_ID, 42],
  );
  assert.throws(() => planDeltas(tokens, { kind: 'recorded', texts: ['nope'] }));
});
