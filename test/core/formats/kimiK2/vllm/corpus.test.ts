/**
 * 600 generated completions (test/fixtures/kimiK2Corpus.ts), each under four delta groupings: one token per
 * delta, three tokens per delta, every special token alone, and random character cuts (markers split as text).
 * The reference parser must be split-invariant and agree with its one-shot parse and with what the generator
 * wrote; each vLLM profile must run without throwing and show its documented deviations wherever they apply.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KimiK2Parser, parseKimiK2 } from '../../../../../src/core/formats/kimiK2/kimiK2Parser.ts';
import { accumulate } from '../../../../../src/core/trace/deltaAccumulator.ts';
import { runVllmProfile, type VllmGroupingChoice, type VllmRun } from '../../../../../src/core/formats/kimiK2/vllm/profileRun.ts';
import type { RecordedGrouping } from '../../../../../src/core/formats/recordedGrouping.ts';
import { planDeltas, type DeltaGrouping } from '../../../../../src/core/formats/kimiK2/vllm/vllmDeltas.ts';
import type { VllmGeneration } from '../../../../../src/core/formats/kimiK2/vllm/vllmProfile.ts';
import { VLLM_GENERATIONS, vllmProfile } from '../../../../../src/core/formats/kimiK2/vllm/vllmProfiles.ts';
import { KimiSplitter } from '../../../../../src/core/formats/kimiK2/kimiSplitter.ts';
import type { Token } from '../../../../../src/core/tokens/token.ts';
import { generateCorpus, mulberry32, type CorpusCompletion } from '../../../../fixtures/kimiK2Corpus.ts';
import { randomCuts as cut } from '../../../../fixtures/randomCuts.ts';

const CORPUS = generateCorpus(600);
const splitter = new KimiSplitter();
const SECTION_BEGIN = '<|tool_calls_section_begin|>';

interface Grouping {
  name: string;
  /** For the reference parser: the delta texts. */
  texts(c: CorpusCompletion, tokens: Token[]): string[];
  /** For the profiles. */
  choice: VllmGroupingChoice;
  recorded?(c: CorpusCompletion): RecordedGrouping;
}

const randomCuts = (text: string, seed: number): string[] => cut(text, mulberry32(seed), 12);

const byPlan = (grouping: DeltaGrouping) => (_: CorpusCompletion, tokens: Token[]) =>
  planDeltas(
    tokens.map((t) => ({ text: t.text, ...(t.id !== undefined ? { id: t.id } : {}) })),
    grouping,
  ).deltas.map((d) => d.text);

const GROUPINGS: Grouping[] = [
  { name: '1 token per delta', texts: byPlan({ kind: 'tokens', perDelta: 1 }), choice: { kind: 'tokens', perDelta: 1 } },
  { name: '3 tokens per delta', texts: byPlan({ kind: 'tokens', perDelta: 3 }), choice: { kind: 'tokens', perDelta: 3 } },
  {
    name: 'special tokens alone',
    texts: byPlan({ kind: 'specials' }),
    choice: { kind: 'recorded' },
    recorded: (c) => ({ texts: byPlan({ kind: 'specials' })(c, splitter.tokenize(c.text)), source: 'specials' }),
  },
  {
    name: 'random character cuts',
    texts: (c) => randomCuts(c.text, c.text.length * 31 + 7),
    choice: { kind: 'recorded' },
    recorded: (c) => ({ texts: randomCuts(c.text, c.text.length * 31 + 7), source: 'random cuts' }),
  },
];

function referenceMessage(text: string) {
  const r = parseKimiK2(text);
  return {
    content: r.content,
    reasoning: r.reasoning,
    calls: r.calls.map((c) => ({ index: c.index, id: c.id || null, name: c.name || null, arguments: c.arguments })),
  };
}

test('the corpus covers every feature, 600 completions', () => {
  assert.equal(CORPUS.length, 600);
  const counts = new Map<string, number>();
  for (const c of CORPUS) for (const [k, v] of Object.entries(c.features)) if (v) counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const feature of Object.keys(CORPUS[0]?.features ?? {}))
    assert.ok((counts.get(feature) ?? 0) >= 20, `${feature}: ${counts.get(feature) ?? 0} completions`);
  // A few short plain answers repeat; the rest are all different.
  assert.ok(new Set(CORPUS.map((c) => c.text)).size >= 0.95 * CORPUS.length, 'nearly all distinct');
});

test('reference parser: split-invariant under every grouping, equal to its one-shot parse and to what was written', () => {
  let checked = 0;
  for (const c of CORPUS) {
    const tokens = splitter.tokenize(c.text);
    const want = referenceMessage(c.text);
    const oneShot = parseKimiK2(c.text);
    for (const g of GROUPINGS) {
      const texts = g.texts(c, tokens);
      assert.equal(texts.join(''), c.text, `${c.name}/${g.name}: the deltas spell the completion`);
      const parser = new KimiK2Parser();
      const deltas = texts.map((t) => parser.push(t));
      deltas.push(parser.finish());
      const got = accumulate(deltas);
      assert.deepEqual(
        {
          content: got.content,
          reasoning: got.reasoning,
          calls: got.calls.map(({ index, id, name, arguments: a }) => ({ index, id, name, arguments: a })),
        },
        want,
        `${c.name}/${g.name}`,
      );
      assert.deepEqual(parser.result(), oneShot, `${c.name}/${g.name}: parse result`);
      checked++;
    }
    if (!c.features.truncated) {
      assert.deepEqual(
        oneShot.calls.map((x) => [x.id, x.name, x.arguments]),
        c.calls.map((x) => [x.id, x.name, x.written.trim()]),
        `${c.name}: the calls as written`,
      );
    }
  }
  assert.equal(checked, 2400);
});

/** Every run of every profile under every grouping, computed once. */
const runs = new Map<string, VllmRun>();
function runOf(c: CorpusCompletion, gen: VllmGeneration, g: Grouping): VllmRun {
  const key = `${c.name}/${gen}/${g.name}`;
  let run = runs.get(key);
  if (!run) {
    run = runVllmProfile({
      generation: gen,
      text: c.text,
      tokens: splitter.tokenize(c.text),
      grouping: g.choice,
      recorded: g.recorded?.(c) ?? null,
    });
    runs.set(key, run);
  }
  return run;
}

test('every profile runs on every completion under every grouping, one answer per delta', () => {
  for (const c of CORPUS) {
    for (const gen of VLLM_GENERATIONS) {
      for (const g of GROUPINGS) {
        const run = runOf(c, gen, g);
        const label = `${c.name}/${gen}/${g.name}`;
        assert.equal(run.groupingNote, null, label);
        assert.equal(
          c.text.slice(run.reasoningEnd),
          run.spans.map((s) => c.text.slice(s.start, s.end)).join(''),
          `${label}: the deltas tile the tool parser's input`,
        );
        assert.equal(run.deltas.length, run.spans.length + (gen === 'C' ? 1 : 0), label);
        for (const d of run.deltas.slice(0, run.spans.length)) {
          if (d === null) continue;
          assert.ok(!('__finish__' in d), label);
          assert.deepEqual(
            Object.keys(d).filter((k) => k !== 'content' && k !== 'tool_calls'),
            [],
            `${label}: only set DeltaMessage fields`,
          );
        }
      }
      // Non-streaming, for the same text.
      assert.doesNotThrow(() => vllmProfile(gen).extract(c.text), `${c.name}/${gen} non-streaming`);
    }
  }
});

const ONE = GROUPINGS[0] as Grouping;
const lastSegment = (id: string) => (id.split(':')[0] ?? '').split('.').at(-1);

test('generation A: streamed arguments stop at the first newline; ids are prefixes of the written ones; one delta loses every call', () => {
  let exact = 0;
  for (const c of CORPUS) {
    const f = c.features;
    for (const g of GROUPINGS) {
      const run = runOf(c, 'A', g);
      for (const call of run.calls) {
        assert.ok(!call.arguments.includes('\n'), `${c.name}/${g.name}: no newline in streamed arguments`);
        assert.ok(
          c.calls.some((w) => w.id.startsWith(call.id)),
          `${c.name}/${g.name}: id ${call.id} is (a prefix of) one written`,
        );
      }
    }
    if (!f.truncated && !f.singularSection && !f.colonInName && !f.whitespace) {
      // One token per delta: every call, the name's last dotted segment, the arguments up to the first newline.
      const want = c.calls.map((w) => ({ id: w.id, name: lastSegment(w.id), arguments: w.written.split('\n')[0] }));
      assert.deepEqual(runOf(c, 'A', ONE).calls, want, c.name);
      exact++;
    }
    if (!f.truncated && !f.singularSection && c.calls.length) {
      const whole = runVllmProfile({
        generation: 'A',
        text: c.text,
        tokens: splitter.tokenize(c.text),
        grouping: { kind: 'tokens', perDelta: 1e6 },
        recorded: null,
      });
      assert.deepEqual(whole.calls, [], `${c.name}: a call beginning and ending in one delta is never streamed`);
    }
  }
  assert.ok(exact > 100, `${exact} completions checked exactly`);
});

test('generation B: content is the text before the section begin; calls as written with the last dotted segment as name', () => {
  for (const c of CORPUS) {
    const f = c.features;
    for (const g of GROUPINGS) {
      const run = runOf(c, 'B', g);
      const cut = c.text.indexOf(SECTION_BEGIN);
      const before = c.text.slice(run.reasoningEnd, cut < 0 ? undefined : cut);
      // Never anything after the section begin; a held-back partial marker may be missing at the end.
      assert.ok(before.startsWith(run.content ?? ''), `${c.name}/${g.name}`);
      if (!f.truncated && !f.singularSection) assert.equal(run.content ?? '', before, `${c.name}/${g.name}`);
    }
    if (!f.truncated && !f.singularSection && !f.colonInName) {
      assert.deepEqual(
        runOf(c, 'B', ONE).calls.map((x) => [x.id, x.name, x.arguments.trim()]),
        c.calls.map((w) => [w.id, lastSegment(w.id), w.written.trim()]),
        c.name,
      );
    }
  }
});

test('generation C: markers only by id (no marker text in content under token groupings); calls as written; name cut at the first colon', () => {
  for (const c of CORPUS) {
    const f = c.features;
    for (const g of GROUPINGS.slice(0, 3)) {
      if (!f.singularSection)
        assert.ok(!(runOf(c, 'C', g).content ?? '').includes('<|tool_call'), `${c.name}/${g.name}: no marker in content`);
    }
    if (f.truncated || f.singularSection) continue;
    for (const g of GROUPINGS.slice(0, 3)) {
      assert.deepEqual(
        runOf(c, 'C', g).calls.map((x) => [x.id, x.name, x.arguments.trim()]),
        c.calls.map((w) => [w.id, w.name.split(':')[0] as string, w.written.trim()]),
        `${c.name}/${g.name}`,
      );
    }
  }
});

test('non-streaming: A and B name calls by the last dotted segment and need a plural section begin; C keeps dotted names', () => {
  for (const c of CORPUS) {
    for (const gen of ['A', 'B'] as const) {
      const r = vllmProfile(gen).extract(c.text);
      for (const call of r.tool_calls) assert.equal(call.name, lastSegment(call.id), `${c.name}/${gen}`);
      if (!c.text.includes(SECTION_BEGIN)) assert.equal(r.tools_called, false, `${c.name}/${gen}`);
      assert.ok(r.tool_calls.length <= c.text.split('<|tool_call_end|>').length - 1, `${c.name}/${gen}: unterminated calls dropped`);
    }
    for (const call of vllmProfile('C').extract(c.text).tool_calls) {
      if (call.id.startsWith('functions.')) assert.equal(call.name, call.id.slice('functions.'.length).split(':')[0], c.name);
    }
  }
});
