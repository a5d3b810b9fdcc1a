/** The webview's DOM-free parts: timeline layout, whitespace glyphs, stepping targets, accumulated calls. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertLinear16 } from '../linearTime.ts';
import { cellsOf, displayRuns, glyphFor, layoutTokens, rowOfSegment, type TimelineLayout } from '../../webview/layout.ts';
import {
  accumulatedCalls,
  anchoredDiagnostics,
  callAt,
  canonicalJson,
  compareArguments,
  nextAfter,
  nextEmission,
  prevBefore,
  stepDiagnostic,
} from '../../webview/navigation.ts';
import { restoreState, defaultState } from '../../webview/state.ts';
import { actionForKey } from '../../webview/stepping.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import type { TokenView } from '../../src/shared/protocol.ts';

const M = { charWidth: 10, chipExtra: 7, width: 200 };

function rows(layout: TimelineLayout, texts: string[]): string[][] {
  const out: string[][] = [];
  for (let r = 0; r < layout.rows; r++) {
    const row: string[] = [];
    for (let s = layout.rowStart[r] as number; s < (layout.rowStart[r + 1] as number); s++) {
      row.push((texts[layout.segToken[s] as number] as string).slice(layout.segFrom[s], layout.segTo[s]));
    }
    out.push(row);
  }
  return out;
}

test('glyphs: one visible character for each whitespace or control character', () => {
  assert.equal(glyphFor(0x20), '·');
  assert.equal(glyphFor(0x0a), '↵');
  assert.equal(glyphFor(0x09), '→');
  assert.equal(glyphFor(0x01), '␁');
  assert.equal(glyphFor(0x41), null);
  assert.deepEqual(displayRuns(' a\tb\n'), [
    { ws: true, text: '·' },
    { ws: false, text: 'a' },
    { ws: true, text: '→' },
    { ws: false, text: 'b' },
    { ws: true, text: '↵' },
  ]);
  assert.deepEqual(displayRuns('abc def', 2, 5), [
    { ws: false, text: 'c' },
    { ws: true, text: '·' },
    { ws: false, text: 'd' },
  ]);
  // Display length equals text length: offsets map one to one.
  const s = 'x \t\r\n\u00a0\u200by';
  assert.equal(
    displayRuns(s)
      .map((r) => r.text)
      .join('').length,
    s.length,
  );
  assert.equal(cellsOf('中'.charCodeAt(0)), 2);
  assert.equal(cellsOf('a'.charCodeAt(0)), 1);
  assert.equal(cellsOf(0x301), 0);
});

test('layout: rows break at newlines and when full; long tokens are cut into segments', () => {
  // Width 200, 10 px a cell, 7 px a chip: "aaaa" takes 47 px.
  const texts = ['aaaa', 'bbbb', 'cccc', 'dddd', 'e\n', 'ffff', 'x'.repeat(40), 'g'];
  const layout = layoutTokens(texts, M);
  assert.deepEqual(rows(layout, texts), [
    ['aaaa', 'bbbb', 'cccc', 'dddd'],
    ['e\n'],
    ['ffff', 'x'.repeat(14)],
    ['x'.repeat(19)],
    ['x'.repeat(7), 'g'],
  ]);
  assert.deepEqual([...layout.tokenRow], [0, 0, 0, 0, 1, 2, 2, 4]);
  assert.equal(rowOfSegment(layout, 0), 0);
  assert.equal(rowOfSegment(layout, layout.segToken.length - 1), 4);
  // Newlines inside a token end the row.
  const t2 = ['a\n\nb', 'c'];
  assert.deepEqual(rows(layoutTokens(t2, M), t2), [['a\n'], ['\n'], ['b', 'c']]);
  // Empty tokens still get a chip.
  const t3 = ['', 'a'];
  assert.deepEqual(rows(layoutTokens(t3, M), t3), [['', 'a']]);
  // Surrogate pairs are never split.
  const t4 = ['😀'.repeat(30)];
  for (const row of rows(layoutTokens(t4, M), t4)) for (const seg of row) assert.ok(!/[\ud800-\udbff]$/.test(seg));
});

// Linear as a ratio of CPU times (test/linearTime.ts); a fixed bound in ms is a bench's job.
test('layout: 100k tokens laid out, in time linear in the tokens', () => {
  const make = (n: number) => Array.from({ length: n }, (_, i) => (i % 20 === 19 ? ' end\n' : ` w${i}`));
  const metrics = { charWidth: 7.8, chipExtra: 7, width: 640 };
  const big = make(100_000);
  const layout = layoutTokens(big, metrics);
  assert.ok(layout.rows >= 5000);
  assert.equal(layout.segToken.length, 100_000);
  const small = make(6_250);
  assertLinear16(
    'layout',
    () => layoutTokens(small, metrics),
    () => layoutTokens(big, metrics),
  );
});

function tok(text: string, extra: Partial<TokenView> = {}): TokenView {
  return { text, role: 'content', special: false, approximate: false, state: 'content', emitted: null, ...extra };
}

function diag(start: number | null, end: number | null, where: Diagnostic['where'] = 'completion'): Diagnostic {
  return {
    code: 'TS001',
    kind: 'content-leak',
    severity: 'error',
    message: 'm',
    hint: 'h',
    where,
    tokenStart: start,
    tokenEnd: end,
    charStart: null,
    charEnd: null,
  };
}

test('navigation: next/previous in sorted positions, diagnostics in turn, calls at the cursor', () => {
  assert.equal(nextAfter([2, 5, 9], 5), 9);
  assert.equal(nextAfter([2, 5, 9], 9), null);
  assert.equal(prevBefore([2, 5, 9], 5), 2);
  assert.equal(prevBefore([2, 5, 9], 2), null);

  const tokens = Array.from({ length: 10 }, (_, i) => tok(String(i)));
  const view = { tokens, diagnostics: [diag(4, 6), diag(1, 3), diag(4, 5), diag(null, null, 'response'), diag(8, 20)] };
  const list = anchoredDiagnostics(view);
  assert.deepEqual(
    list.map((d) => [d.index, d.start, d.end]),
    [
      [1, 1, 3],
      [0, 4, 6],
      [2, 4, 5],
      [4, 8, 10],
    ],
  );
  // From the cursor: the first at or after it; then in turn, even at the same token.
  let active = stepDiagnostic(list, 0, null, 1);
  assert.equal(active, 0);
  active = stepDiagnostic(list, 1, active, 1);
  assert.equal(active, 1);
  active = stepDiagnostic(list, 4, active, 1);
  assert.equal(active, 2);
  assert.equal(list[active as number]?.start, 4);
  assert.equal(stepDiagnostic(list, 4, active, -1), 1);
  assert.equal(stepDiagnostic(list, 9, null, 1), null);
  assert.equal(stepDiagnostic(list, 7, null, -1), 2);

  const calls = [
    {
      index: 0,
      id: 'a',
      name: 'a',
      arguments: '{}',
      tokenStart: 2,
      tokenEnd: 5,
      terminated: true,
      fragments: [],
      schemaErrors: [],
      tool: null,
    },
    {
      index: 1,
      id: 'b',
      name: 'b',
      arguments: '{}',
      tokenStart: 0,
      tokenEnd: 0,
      terminated: true,
      fragments: [],
      schemaErrors: [],
      tool: null,
    },
  ];
  assert.equal(callAt(calls, 4)?.index, 0);
  assert.equal(callAt(calls, 5), null);
  assert.equal(callAt(calls, 0), null);
});

test('accumulated calls: what the client has after a token, including the final flush', () => {
  const tokens = [
    tok('a', { emitted: { content: 'a' } }),
    tok('<m>', { emitted: { tool_calls: [{ index: 0, id: 'functions.f:0', function: { name: 'f' } }] } }),
    tok('{"x"', { emitted: { tool_calls: [{ index: 0, function: { arguments: '{"x"' } }] } }),
    tok(':1', { emitted: null }),
  ];
  const finalEmitted = { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] };
  assert.deepEqual(accumulatedCalls({ tokens, finalEmitted }, 0), []);
  assert.deepEqual(accumulatedCalls({ tokens, finalEmitted }, 2), [
    { index: 0, id: 'functions.f:0', name: 'f', arguments: '{"x"', lastToken: 2 },
  ]);
  assert.equal(accumulatedCalls({ tokens, finalEmitted }, 3)[0]?.arguments, '{"x":1}');
  assert.equal(nextEmission(tokens, 2), null);
  assert.equal(nextEmission(tokens, 0), 1);
  assert.equal(compareArguments('{"a":1,"b":2}', '{"b": 2, "a": 1}'), 'same-json');
  assert.equal(compareArguments('{"a":1}', '{"a":2}'), 'different');
  assert.equal(compareArguments('{', '{'), 'same');
  assert.equal(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null }), '{"a":null,"b":[1,{"c":2,"d":1}]}');
});

test('keys map to stepping actions; modifiers are left alone', () => {
  const k = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) =>
    actionForKey({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
  assert.equal(k('ArrowRight'), 'next');
  assert.equal(k('ArrowDown'), 'nextMarker');
  assert.equal(k(']'), 'nextMarker');
  assert.equal(k('e'), 'nextDiag');
  assert.equal(k('E', { shiftKey: true }), 'prevDiag');
  assert.equal(k('n'), 'nextCall');
  assert.equal(k(' '), 'play');
  assert.equal(k('?', { shiftKey: true }), 'help');
  assert.equal(k('c', { ctrlKey: true }), null);
  assert.equal(k('x'), null);
});

test('saved UI state is checked field by field', () => {
  assert.deepEqual(restoreState(undefined), defaultState());
  assert.deepEqual(restoreState({ v: 2, selectedKey: 'x' }), defaultState());
  const s = restoreState({
    v: 1,
    selectedKey: '3:0',
    cursors: { '3:0': 12, bad: -1, worse: 'x' },
    filters: { text: 'a', severity: 'nope', errorsOnly: true },
    listWidth: 5,
    centreTab: 'request',
  });
  assert.equal(s.selectedKey, '3:0');
  assert.deepEqual(s.cursors, { '3:0': 12 });
  assert.deepEqual(s.filters, { text: 'a', kind: '', severity: '', errorsOnly: true });
  assert.equal(s.listWidth, 160);
  assert.equal(s.centreTab, 'request');
});
