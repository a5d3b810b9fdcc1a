/**
 * The vLLM tab's view model: the reference parse and the profile's answer line by line with the findings that
 * explain each difference, the deltas with their tokens, and the session running the profile with another grouping.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { recordView } from '../../../src/host/view/recordView.ts';
import { TraceSession } from '../../../src/host/view/traceSession.ts';
import { vllmView } from '../../../src/host/view/vllmView.ts';
import { embeddedTrace } from '../../../src/host/view/embeddedTrace.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';

const S = '<|tool_calls_section_begin|>';
const E = '<|tool_calls_section_end|>';
const B = '<|tool_call_begin|>';
const A = '<|tool_call_argument_begin|>';
const C = '<|tool_call_end|>';
const SAMPLES = fileURLToPath(new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));

const analyse = (record: TraceRecord, options: ConstructorParameters<typeof Analyzer>[0]) =>
  new Analyzer(options).analyze({ record, line: 1, lastLine: 1, source: 'native' });

test('rows: content, each reference call with its counterpart, a call only vLLM sees; findings beside each', () => {
  // A bare call begin inside a think block after the content stays reasoning in the reference parse (a section begin
  // there would end the reasoning: the engines' consensus), while A's tool parser, past its reasoning parser, sees it.
  const text = `Sure. ${S}${B}functions.web.search:0${A}{"q": "a\nb"}${C}${E}<think>x ${B}functions.f:1${A}{}${C}</think>`;
  const a = analyse({ toolscope: 1, id: 'r', completion: { text } }, { vllmProfile: 'A' });
  const view = vllmView(a);
  assert.ok(view);
  assert.equal(view.profile, 'A');
  assert.equal(view.commit, 'f1816fb');
  assert.equal(view.groupingLabel, '1 token per delta');
  assert.deepEqual(
    view.rows.map((r) => [
      r.kind,
      r.reference === null ? null : 'content' in r.reference ? 'content' : r.reference.id,
      r.vllm === null ? null : 'content' in r.vllm ? 'content' : r.vllm.id,
    ]),
    [
      ['content', 'content', 'content'],
      ['call', 'functions.web.search:0', 'functions.web.search:0'],
      ['call', null, 'functions.f:1'],
    ],
  );
  const details = (i: number) => view.rows[i]?.findings.map((f) => view.diagnostics[f]?.detail);
  assert.deepEqual(details(1), ['name-changed', 'arguments-truncated']);
  assert.deepEqual(details(2), ['call-added']);
  assert.ok(details(0)?.includes('content-leaked'));
  // Every finding sits on exactly one row.
  assert.deepEqual(
    view.rows.flatMap((r) => r.findings).sort((x, y) => x - y),
    view.diagnostics.map((_, i) => i),
  );
  // The deltas: one per token, with their text and token range; A has no end-of-stream flush.
  assert.equal(view.deltasTotal, a.completion?.tokens.length);
  assert.deepEqual(view.deltas.map((d) => d.text).join(''), text);
  assert.ok(view.deltas.every((d, i) => d.tokenStart === i && d.tokenEnd === i + 1));
  assert.equal('finish' in view, false);
});

test('generation C: its end-of-stream flush; the think tokens the reasoning parser took', () => {
  const text = `<think>hmm</think>Hi <|tool_c`;
  const view = vllmView(analyse({ toolscope: 1, id: 'r', completion: { text } }, { vllmProfile: 'C' }));
  assert.ok(view);
  assert.deepEqual(view.finish, { content: '<|tool_c' });
  assert.equal(view.reasoningTokens, 3);
  assert.equal(view.deltas.map((d) => d.text).join(''), 'Hi <|tool_c');
});

test('the record view carries it only with a profile and a raw completion', () => {
  const record: TraceRecord = { toolscope: 1, id: 'r', completion: { text: 'plain' } };
  assert.equal(recordView('0:0', analyse(record, {}), record).vllm, null);
  assert.equal(recordView('0:0', analyse(record, { vllmProfile: 'B' }), record).vllm?.profile, 'B');
});

test('session: the list and views follow the profile option; vllmRun regroups one record; reports embed it', async () => {
  const session = await TraceSession.open(SAMPLES, 'samples', { vllmProfile: 'A' });
  try {
    const { summaries } = await session.analyseAll();
    const key = summaries.find((s) => s.id === 'newline-after-call-begin')?.key as string;
    assert.ok(summaries.find((s) => s.key === key)?.kinds['vllm-divergence']);
    const { view } = await session.record(key);
    assert.ok(view.vllm?.diagnostics.some((d) => d.detail === 'call-dropped'));
    const two = await session.vllmRun(key, { kind: 'tokens', perDelta: 2 });
    assert.deepEqual(two.grouping, { kind: 'tokens', perDelta: 2 });
    const recorded = await session.vllmRun(key, { kind: 'recorded' });
    assert.deepEqual(recorded.grouping, { kind: 'tokens', perDelta: 1 });
    assert.match(recorded.groupingNote ?? '', /no delta grouping/);
    assert.equal(session.setOptions({ vllmProfile: 'A' }), false, 'same options: nothing starts over');
    assert.equal(session.setOptions({ vllmProfile: 'B' }), true);
    assert.equal(session.setOptions({ deltaTokens: 3 }), true);
    await session.analyseAll();
    assert.deepEqual((await session.record(key)).view.vllm?.grouping, { kind: 'tokens', perDelta: 3 });
    assert.equal(session.setOptions({ vllmProfile: undefined }), true);
    await assert.rejects(session.vllmRun(key, { kind: 'recorded' }), /no vLLM profile is chosen/);
  } finally {
    await session.close();
  }
  const data = await embeddedTrace(SAMPLES, 'samples', 'report', { vllmProfile: 'C', deltaTokens: 4 });
  const views = Object.values(data.records);
  assert.ok(views.some((v) => v.vllm?.profile === 'C' && v.vllm.grouping.kind === 'tokens' && v.vllm.grouping.perDelta === 4));
});

test('a completions-mode replay offers its recorded grouping', async () => {
  const chunks = ['Hi. ', `${S}${B}functions.f:0${A}{"a": 1}`, `${C}${E}`];
  const record: TraceRecord = {
    toolscope: 1,
    id: 'replay',
    completion: { text: chunks.join('') },
    meta: { rawStream: chunks.map((text) => JSON.stringify({ object: 'text_completion', choices: [{ index: 0, text }] })) },
  };
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-vllm-view-'));
  try {
    const path = join(dir, 't.jsonl');
    await writeFile(path, JSON.stringify(record) + '\n');
    const session = await TraceSession.open(path, 't', { vllmProfile: 'A' });
    try {
      await session.analyseAll();
      const { view } = await session.record('0:0');
      assert.match(view.vllm?.recordedSource ?? '', /recorded \/v1\/completions stream, 3 chunks/);
      const run = await session.vllmRun('0:0', { kind: 'recorded' });
      assert.equal(run.groupingLabel, 'as recorded (the chunks of the recorded /v1/completions stream, 3 chunks)');
      assert.deepEqual(
        run.deltas.map((d) => d.text),
        chunks,
      );
    } finally {
      await session.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
