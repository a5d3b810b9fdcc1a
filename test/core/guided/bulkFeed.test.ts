/**
 * Feeding in bulk (bulkFeed.ts) against feeding piece by piece (`feedByPiece`, the way the what-if fed before: every
 * special token with acceptToken, text in 64-character strings, then one code point at a time). On completions
 * broken at every offset — a refused character, an excluded string, a cut — both report the same outcome and leave
 * the matcher in the same state (the same tokens allowed next, the same forced string), so the what-if's findings
 * cannot differ.
 * (Text holding a lone surrogate is fed piece by piece by `feedInBulk` itself; the cases hold such text too.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedByPiece, feedInBulk, hasLoneSurrogate, type FeedOutcome } from '../../../src/core/guided/bulkFeed.ts';
import { tagExcludes } from '../../../src/core/guided/tagTools.ts';
import { compileFormatGrammar, newMatcher, type CompiledGrammar } from '../../../src/core/guided/xgrammar.ts';
import { compileKimiGrammar } from './kimiGrammar.ts';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { GUIDED_CASES } from '../../fixtures/guided/index.ts';
import { call, section, TOOLS } from './fixtures.ts';

/** Both ways over text[0, text.length): the outcomes and the matchers' states where they stopped. */
async function compare(grammar: CompiledGrammar, text: string, label: string): Promise<FeedOutcome> {
  const excludes = tagExcludes(grammar.tag);
  const bulk = await newMatcher(grammar);
  const byPiece = await newMatcher(grammar);
  try {
    const a = await feedInBulk(bulk, grammar.vocabulary, excludes, text, 0, text.length);
    const b = await feedByPiece(byPiece, grammar.vocabulary, excludes, text, 0, text.length);
    assert.deepEqual(a, b, `${label}: ${JSON.stringify(text)}`);
    assert.deepEqual(await bulk.nextTokenBitmask(), await byPiece.nextTokenBitmask(), `${label}: state`);
    assert.equal(bulk.jumpForwardString(), byPiece.jumpForwardString(), `${label}: forced string`);
    return a;
  } finally {
    bulk.dispose();
    byPiece.dispose();
  }
}

/** The completion broken at every offset: a character refused there, excluded strings written there, cut there. */
async function everyBreak(grammar: CompiledGrammar, text: string): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  const count = (o: FeedOutcome) => {
    const k = o.ok ? 'ok' : o.excluded ? 'excluded' : 'refused';
    outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  };
  for (let i = 0; i <= text.length; i++) {
    const before = text.slice(0, i);
    const after = text.slice(i);
    count(await compare(grammar, before + '\u0007' + after, `refused at ${i}`));
    count(await compare(grammar, before + '<think>' + after, `<think> at ${i}`));
    count(await compare(grammar, before + '<|tool_call_begin|>' + after, `call begin at ${i}`));
    count(await compare(grammar, before, `cut at ${i}`));
  }
  return outcomes;
}

test('bulk feeding: Kimi K2 completions broken at every offset give what piece-by-piece feeding gives', async () => {
  const grammar = await compileKimiGrammar(TOOLS, 'auto');
  const text = `Sure 😀. ${section(call('get_weather', 0, '{"city": "Ōslo 😀", "unit": "c"}'), call('search', 1, '{"q": "x", "top_k": 20}'))}`;
  const outcomes = await everyBreak(grammar, text);
  // Every kind of outcome was met, or the comparison proved less than it says.
  assert.deepEqual([...outcomes.keys()].sort(), ['excluded', 'ok', 'refused']);
});

test('bulk feeding: a long completion (chunks and halving over special tokens) gives what piece-by-piece feeding gives', async () => {
  const grammar = await compileKimiGrammar(TOOLS, 'auto');
  const calls = Array.from({ length: 120 }, (_, i) =>
    call('search', i, `{"q": "topic ${i} ${'é'.repeat(i % 7)}", "top_k": ${(i % 20) + 1}}`),
  );
  const text = `${'Some prose before the calls. 😀 '.repeat(300)}${section(...calls)}`;
  assert.ok(text.indexOf('<|tool_calls_section_begin|>') < 3 * 4096 - 100 && text.length > 4 * 4096);
  assert.deepEqual(await compare(grammar, text, 'clean'), { ok: true });
  // Refused far into the calls: around the ends of chunks, inside a special token's string, near the end.
  const places = [3 * 4096 - 1, 3 * 4096, 3 * 4096 + 1, 4 * 4096 + 7, text.lastIndexOf('<|tool_call_end|>') + 5, text.length - 40];
  for (const at of places) {
    const broken = text.slice(0, at) + '\u0007' + text.slice(at);
    const o = await compare(grammar, broken, `refused at ${at}`);
    assert.equal(o.ok, false, `refused at ${at}`);
  }
});

test('bulk feeding: every format with a structural tag, its cases broken at every offset', async () => {
  for (const [name, c] of Object.entries(GUIDED_CASES)) {
    if (name === 'kimi_k2') continue;
    const guided = getFormat(name).guided;
    assert.ok(guided, name);
    const grammar = await compileFormatGrammar(guided, c.tools, 'auto');
    for (const text of [c.clean, c.hallucinated.text]) await everyBreak(grammar, text);
  }
});

test('hasLoneSurrogate: a surrogate without its other half inside the range, pairs cut by the range ends included', () => {
  // What the check replaced: a look-around regex over the range's slice (the oracle here, 1.3 ms on 144k characters).
  const oracle = (text: string, from: number, to: number) =>
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text.slice(from, to));
  const units = ['a', 'é', '→', '\ud83d\ude00', '\ud83d', '\ude00', '<|tool_call_begin|>', '\n'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16;
  let lone = 0;
  for (let n = 0; n < 3000; n++) {
    let text = '';
    for (let k = next() % 12; k > 0; k--) text += units[next() % units.length];
    for (let from = 0; from <= text.length; from++) {
      for (let to = from; to <= text.length; to++) {
        const want = oracle(text, from, to);
        lone += want ? 1 : 0;
        assert.equal(hasLoneSurrogate(text, from, to), want, `${JSON.stringify(text)} [${from}, ${to})`);
      }
    }
  }
  assert.ok(lone > 1000, 'the generated texts hold lone surrogates');
});
