import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KimiK2Parser, parseKimiK2 } from '../../../../src/core/formats/kimiK2/kimiK2Parser.ts';
import { accumulate } from '../../../../src/core/trace/deltaAccumulator.ts';
import type { ParserDelta, ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { KIMI_FIXTURES } from '../../../fixtures/kimiK2Completions.ts';
import { checkLinear } from '../kit/formatTestKit.ts';

for (const fx of KIMI_FIXTURES) {
  test(`one-shot parse: ${fx.name}`, () => {
    const r = parseKimiK2(fx.text, fx.options);
    assert.equal(r.content, fx.content);
    assert.equal(r.reasoning, fx.reasoning ?? null);
    assert.deepEqual(
      r.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      fx.calls,
    );
    assert.deepEqual(r.notes.map((n) => n.kind).sort(), [...(fx.notes ?? [])].sort());
    // Spans point at the text they claim to.
    for (const c of r.calls) {
      if (c.argumentsSpan) assert.equal(fx.text.slice(c.argumentsSpan.start, c.argumentsSpan.end), c.arguments);
      assert.equal(fx.text.slice(c.idSpan.start, c.idSpan.end), c.id);
    }
    for (const m of r.markers) assert.equal(fx.text.slice(m.span.start, m.span.end), m.text);
    assert.equal(r.contentSpans.map((s) => fx.text.slice(s.start, s.end)).join(''), r.content ?? '');
  });
}

test('never emits an empty content string or marker text as content', () => {
  for (const fx of KIMI_FIXTURES) {
    const p = new KimiK2Parser(fx.options);
    const deltas: Array<ParserDelta | null> = [];
    for (const ch of fx.text) deltas.push(p.push(ch));
    deltas.push(p.finish());
    for (const d of deltas) {
      if (!d) continue;
      assert.notEqual(d.content, '', fx.name);
      assert.ok(Object.keys(d).length > 0, `${fx.name}: an empty delta object`);
      for (const marker of ['<|tool_calls_section_begin|>', '<|tool_call_begin|>', '<|tool_call_argument_begin|>', '<|tool_call_end|>']) {
        assert.ok(!(d.content ?? '').includes(marker), `${fx.name}: ${marker} leaked`);
      }
    }
  }
});

test('id and name arrive before any argument fragment, each once', () => {
  const fx = KIMI_FIXTURES.find((f) => f.name === 'parallel calls');
  assert.ok(fx);
  const p = new KimiK2Parser();
  const seen = new Map<number, { id: number; args: boolean }>();
  for (const ch of fx.text) {
    for (const tc of p.push(ch)?.tool_calls ?? []) {
      const s = seen.get(tc.index) ?? { id: 0, args: false };
      if (tc.id) {
        assert.equal(s.args, false, 'id after arguments');
        s.id++;
      }
      if (tc.function.arguments) s.args = true;
      seen.set(tc.index, s);
    }
  }
  assert.deepEqual(
    [...seen.values()].map((s) => s.id),
    [1, 1, 1],
  );
});

test('result() mid-stream shows the open call with its partial arguments', () => {
  const p = new KimiK2Parser();
  p.push('<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": ');
  const r = p.result();
  assert.equal(r.calls.length, 1);
  assert.equal(r.calls[0]?.arguments, '{"a":');
  assert.equal(r.calls[0]?.terminated, false);
});

test('push after finish is an error', () => {
  const p = new KimiK2Parser();
  p.finish();
  assert.throws(() => p.push('x'), /after finish/);
});

test('streaming deltas accumulate like a client would', () => {
  const fx = KIMI_FIXTURES.find((f) => f.name === 'single call');
  assert.ok(fx);
  const p = new KimiK2Parser();
  const msg = accumulate([p.push(fx.text.slice(0, 40)), p.push(fx.text.slice(40)), p.finish()]);
  assert.equal(msg.content, 'Let me look that up. ');
  assert.equal(msg.calls[0]?.id, 'functions.get_weather:0');
  assert.equal(msg.calls[0]?.name, 'get_weather');
});

test('kimi_k2: linear work in the size of the input (sections, calls, think blocks, raw fallback)', () => {
  const make = (options?: ParserOptions) => new KimiK2Parser(options);
  checkLinear(
    make,
    '<think>weighing < and |> </think>Text <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris", "x": "a <| b"}<|tool_call_end|><|tool_calls_section_end|> more ',
  );
  checkLinear(make, 'functions.search:1 {"q": "x"} and prose <|tool_call ', { recoverRawFallback: true });
});
