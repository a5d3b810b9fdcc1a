/**
 * Shared by the Hermes, Qwen3-Coder, DeepSeek-V3.1, Harmony and Llama parser tests: the fixture shape, the one-shot
 * checks, and the split property (every 2-cut, 1 char per delta, seeded random cuts) the Kimi K2 tests established.
 */
import assert from 'node:assert/strict';
import { accumulate } from '../../../../src/core/trace/deltaAccumulator.ts';
import type { ParserDelta, ParserOptions, ParseResult, StreamingParser } from '../../../../src/core/formats/toolCallFormat.ts';
import { mulberry32, randomCuts } from '../../../fixtures/randomCuts.ts';
import { countWork } from '../workCounter.ts';

export interface ExpectedCall {
  name: string;
  arguments: string;
}

export interface FormatFixture {
  name: string;
  text: string;
  options?: ParserOptions;
  content: string | null;
  reasoning?: string | null;
  calls: ExpectedCall[];
  /** Structure note kinds expected (in any order; duplicates count). */
  notes?: string[];
  /** Calls cut off (terminated: false), by index; default none. */
  unterminated?: number[];
}

export type ParserFactory = (options?: ParserOptions) => StreamingParser;

export function oneShot(make: ParserFactory, text: string, options?: ParserOptions): ParseResult {
  const p = make(options);
  p.push(text);
  p.finish();
  return p.result();
}

/** The one-shot parse matches the fixture; markers, ids and content spans point at the text they claim to. */
export function checkFixture(make: ParserFactory, fx: FormatFixture, opts: { argumentsVerbatim: boolean }): void {
  const r = oneShot(make, fx.text, fx.options);
  assert.equal(r.content, fx.content, `${fx.name}: content`);
  assert.equal(r.reasoning, fx.reasoning ?? null, `${fx.name}: reasoning`);
  assert.deepEqual(
    r.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
    fx.calls,
    `${fx.name}: calls`,
  );
  assert.deepEqual(r.notes.map((n) => n.kind).sort(), [...(fx.notes ?? [])].sort(), `${fx.name}: notes ${JSON.stringify(r.notes)}`);
  assert.deepEqual(
    r.calls.filter((c) => !c.terminated).map((c) => c.index),
    fx.unterminated ?? [],
    `${fx.name}: unterminated calls`,
  );
  for (const c of r.calls) {
    assert.equal(c.id, '', `${fx.name}: the model writes no ids`);
    assert.ok(c.span.start <= c.span.end && c.span.end <= fx.text.length, `${fx.name}: call span`);
    const written = fx.text.slice(c.idSpan.start, c.idSpan.end);
    // The name as written (a JSON-escaped name, or one with XML entities, decodes to it).
    if (!written.includes('\\') && !written.includes('&')) assert.equal(written, c.name, `${fx.name}: name span`);
    if (c.argumentsSpan) {
      assert.ok(c.argumentsSpan.start >= c.span.start && c.argumentsSpan.end <= c.span.end, `${fx.name}: arguments inside the call`);
      if (opts.argumentsVerbatim)
        assert.equal(fx.text.slice(c.argumentsSpan.start, c.argumentsSpan.end), c.arguments, `${fx.name}: arguments span`);
    }
  }
  for (const m of r.markers) assert.equal(fx.text.slice(m.span.start, m.span.end), m.text, `${fx.name}: marker span`);
  for (let i = 1; i < r.markers.length; i++)
    assert.ok((r.markers[i - 1]?.span.end ?? 0) <= (r.markers[i]?.span.start ?? 0), `${fx.name}: markers in order`);
  assert.equal(r.contentSpans.map((s) => fx.text.slice(s.start, s.end)).join(''), r.content ?? '', `${fx.name}: content spans`);
  for (const n of r.notes) assert.ok(n.span.start <= n.span.end && n.span.end <= fx.text.length, `${fx.name}: note span`);
}

/** Fed one character at a time: no empty content, no empty delta, no marker text in content. */
export function checkDeltas(make: ParserFactory, fx: FormatFixture, leaks: readonly string[]): void {
  const p = make(fx.options);
  const deltas: Array<ParserDelta | null> = [];
  for (const ch of fx.text) deltas.push(p.push(ch));
  deltas.push(p.finish());
  const content = deltas.map((d) => d?.content ?? '').join('');
  for (const d of deltas) {
    if (!d) continue;
    assert.notEqual(d.content, '', fx.name);
    assert.notEqual(d.reasoning_content, '', fx.name);
    assert.ok(Object.keys(d).length > 0, `${fx.name}: an empty delta object`);
  }
  // Markup the fixture keeps as content on purpose (stray text) is in its expected content; nothing else leaks.
  for (const marker of leaks) {
    if ((fx.content ?? '').includes(marker)) continue;
    assert.ok(!content.includes(marker), `${fx.name}: ${marker} leaked`);
  }
}

/** Names reach the client before any argument fragment of their call, once each. */
export function checkNameFirst(make: ParserFactory, fx: FormatFixture): void {
  const p = make(fx.options);
  const seen = new Map<number, { named: number; args: boolean }>();
  const deltas = [...fx.text].map((ch) => p.push(ch));
  deltas.push(p.finish());
  for (const d of deltas) {
    for (const tc of d?.tool_calls ?? []) {
      const s = seen.get(tc.index) ?? { named: 0, args: false };
      if (tc.type === 'function') {
        assert.equal(s.args, false, `${fx.name}: name after arguments`);
        s.named++;
      }
      if (tc.function.arguments) {
        assert.ok(s.named > 0, `${fx.name}: arguments before the name`);
        s.args = true;
      }
      seen.set(tc.index, s);
    }
  }
  for (const [index, s] of seen) assert.equal(s.named, 1, `${fx.name}: call ${index} announced ${s.named} times`);
}

// ---- the split property ------------------------------------------------------------------------------

function streamed(make: ParserFactory, pieces: string[], options?: ParserOptions) {
  const p = make(options);
  const deltas = pieces.map((piece) => p.push(piece));
  deltas.push(p.finish());
  return { message: accumulate(deltas), result: p.result() };
}

function check(
  make: ParserFactory,
  text: string,
  pieces: string[],
  options: ParserOptions | undefined,
  label: string,
  want: ParseResult,
): void {
  const got = streamed(make, pieces, options);
  const cut = JSON.stringify(pieces.map((p) => p.length));
  assert.deepEqual(
    {
      content: got.message.content,
      reasoning: got.message.reasoning,
      calls: got.message.calls.map(({ index, id, name, arguments: a }) => ({ index, id, name, arguments: a })),
    },
    {
      content: want.content,
      reasoning: want.reasoning,
      calls: want.calls.map((c) => ({ index: c.index, id: c.id || null, name: c.name || null, arguments: c.arguments })),
    },
    `${label}: accumulated deltas differ for cut ${cut}`,
  );
  assert.deepEqual(got.result, want, `${label}: parse result differs for cut ${cut}`);
}

/** However the text is cut into deltas, streaming equals the one-shot parse: accumulated message and result. */
export function checkAllCuts(make: ParserFactory, text: string, options: ParserOptions | undefined, label: string): void {
  const want = oneShot(make, text, options);
  for (let cut = 0; cut <= text.length; cut++) check(make, text, [text.slice(0, cut), text.slice(cut)], options, label, want);
  check(make, text, [...text], options, `${label} (1 char per delta)`, want);
  check(make, text, text.split(''), options, `${label} (1 UTF-16 unit per delta)`, want);
  const rnd = mulberry32(text.length * 7919 + 17);
  for (let round = 0; round < 40; round++) check(make, text, randomCuts(text, rnd, 1 + (round % 12)), options, label, want);
}

/** Parsing is linear: doubling the input roughly doubles the time, for text fed in small deltas. */
export function checkLinear(make: ParserFactory, unit: string, options?: ParserOptions): void {
  const work = (copies: number): number => {
    const text = unit.repeat(copies);
    return countWork(() => {
      const p = make(options);
      for (let i = 0; i < text.length; i += 3) p.push(text.slice(i, i + 3));
      p.finish();
    });
  };
  // Counted, not timed (a busy machine cannot spoil it): linear work is ~4x for 4x the input, quadratic ~16x.
  const ratio = work(4000) / work(1000);
  assert.ok(ratio < 5, `4x the input took ${ratio.toFixed(1)}x the work`);
}
