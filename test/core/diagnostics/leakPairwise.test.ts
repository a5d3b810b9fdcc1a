/**
 * The leak rule, pairwise over every registered format (rows in test/fixtures/leakSamples.ts): a leak of one
 * format's markup, in a record read as any format, is one content-leak attributed to that format and never to
 * another; its opener alone is one fragment that claims no call and names a format that writes that opener; the
 * markup of formats with no parser stays unknown markup and is never named as a registered format's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNames, getFormat } from '../../../src/core/formats/registry.ts';
import { attributeLeaks } from '../../../src/core/diagnostics/leakAttribution.ts';
import { LEAKS, UNREGISTERED } from '../../fixtures/leakSamples.ts';
import { analyze, completionResponse, ofKind, record, TOOLS } from './analyze.helpers.ts';

const answer = (content: string, format: string, calls: Parameters<typeof completionResponse>[1] = []) =>
  analyze(
    record({
      meta: { format },
      response: completionResponse(content, calls, calls.length ? 'tool_calls' : 'stop'),
    }),
  );

test('leak table: every registered format has a row, and every row is a registered format', () => {
  assert.deepEqual([...new Set(LEAKS.map((r) => r.format))].sort(), formatNames().sort());
  for (const row of LEAKS) assert.ok(row.call.includes(row.opener), `${row.format}: the call opens with its opener`);
  for (const row of UNREGISTERED) assert.ok(!formatNames().includes(row.name), `${row.name} is registered: move its row to LEAKS`);
});

for (const row of LEAKS) {
  test(`pairwise: ${row.format}'s call ${row.opener} leaked into content is ${row.format}'s, in a record read as any format`, () => {
    for (const context of formatNames()) {
      const content = `Let me check. ${row.call}`;
      const leaks = ofKind(answer(content, context), 'content-leak');
      assert.deepEqual(
        leaks.map((d) => d.detail),
        [row.format],
        `${row.format} markup in a record read as ${context}: ${JSON.stringify(leaks.map((d) => d.message))}`,
      );
      assert.match(leaks[0]!.message, /holds 1 call \(get_weather\) the client never received/u, `${row.format} in ${context}`);
      assert.equal(leaks[0]!.charStart, 'Let me check. '.length);
      // The same through the rule itself.
      const spans = attributeLeaks(content, TOOLS, getFormat(context));
      assert.deepEqual(
        spans.map((s) => s.format?.name ?? null),
        [row.format],
        `${row.format} in ${context}`,
      );
    }
  });

  test(`pairwise: ${row.format}'s opener ${row.opener} alone is one fragment that claims no call, named for a format that writes it`, () => {
    const writers = LEAKS.filter((r) => r.opener === row.opener).map((r) => getFormat(r.format).displayName);
    for (const context of formatNames()) {
      const delivered = [{ id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' }];
      const r = answer(row.opener, context, delivered);
      const leaks = ofKind(r, 'content-leak');
      assert.deepEqual(
        leaks.map((d) => d.detail),
        ['opener-only'],
        `${row.format}'s opener in a record read as ${context}`,
      );
      const named = writers.filter((w) => leaks[0]!.message.includes(w));
      assert.equal(named.length, 1, `${leaks[0]!.message} names one of ${writers.join(', ')}`);
      assert.doesNotMatch(leaks[0]!.message, /never received/u);
      // The opener claims no call: no call-level finding of a leaked call.
      assert.deepEqual(
        r.diagnostics.filter((d) => d.detail === 'leaked'),
        [],
      );
    }
  });
}

/** The shapes of calls written with no markup (unmarkedCalls.ts): no format's name. */
const UNMARKED_SHAPES = new Set(['call-colon', 'pythonic', 'invoke-xml']);

for (const row of UNREGISTERED) {
  test(`unregistered: ${row.name} markup is no registered format's leak`, () => {
    for (const context of formatNames()) {
      const r = answer(row.text, context);
      // A call inside it in a shape Toolscope reads with no markup (a pythonic list, `call:`, `<invoke>`) is that
      // span's one finding, a content-leak naming the shape — never a registered format.
      const leaks = ofKind(r, 'content-leak');
      for (const d of leaks)
        assert.ok(d.detail && UNMARKED_SHAPES.has(d.detail), `${row.name} in a record read as ${context}: ${d.detail}`);
      assert.deepEqual(
        r.diagnostics.filter((d) => d.detail === 'leaked'),
        [],
      );
      assert.equal(ofKind(r, 'unknown-markup-in-content').length, row.unknownMarkup && !leaks.length ? 1 : 0, `${row.name} in ${context}`);
    }
  });
}
