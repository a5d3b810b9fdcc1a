/**
 * The what-if over the markup only (markupFeed.ts) against the whole-text feed: the table of tags it holds for, then
 * the same verdict, anchor, words and allowed set on every format's cases broken at every offset and on generated
 * completions (prose with near-triggers and end strings, calls anywhere, think blocks, cuts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { whatIf, type WhatIfResult } from '../../../src/core/guided/whatIf.ts';
import { markupPlan } from '../../../src/core/guided/markupFeed.ts';
import { compileFormatGrammar, takeMatcher, type CompiledGrammar } from '../../../src/core/guided/xgrammar.ts';
import { formatNames, getFormat } from '../../../src/core/formats/registry.ts';
import type { StructuralTag } from '../../../src/core/formats/structuralTag/structuralTagFormat.ts';
import { GUIDED_CASES, type GuidedCase } from '../../fixtures/guided/index.ts';
import { seededRandom } from '../../../bench/seededRandom.ts';

async function both(grammar: CompiledGrammar, text: string, finishReason: string, reasoning: 'skip' | 'constrain' = 'skip') {
  const completion = { text, tokens: [], finishReason };
  const markup = await whatIf(grammar, completion, { reasoning, feed: 'markup' });
  const whole = await whatIf(grammar, completion, { reasoning, feed: 'whole' });
  return { markup, whole };
}

async function same(
  grammar: CompiledGrammar,
  text: string,
  label: string,
  finishReason = 'stop',
  reasoning: 'skip' | 'constrain' = 'skip',
): Promise<WhatIfResult> {
  const { markup, whole } = await both(grammar, text, finishReason, reasoning);
  assert.deepEqual(markup, whole, `${label} (${finishReason}, ${reasoning}): ${JSON.stringify(text)}`);
  return whole;
}

function tagOf(format: string, choice: unknown, tools = GUIDED_CASES[format]?.tools ?? []): StructuralTag {
  const guided = getFormat(format).guided;
  assert.ok(guided, format);
  return guided.structuralTag(tools, choice as never, guided.reasoningInTag ? { reasoning: true } : {});
}

/**
 * Formats whose tag has no trigger to scan for, so the what-if feeds them whole: Harmony (its channels are the tag),
 * Kimi K3 (vLLM's kimi_k3 tag is a sequence — free text up to the response channel's close, then the tools channel).
 */
const WHOLE_TEXT = new Set(['harmony', 'kimi_k3']);
/** Formats whose call tags hold free text (vLLM's Hy3 tag: its values): with tools, fed whole too. */
const FREE_TEXT_CALLS = new Set(['hy_v3']);

test('the table: markup only for tool_choice auto and for no tools, never for required, a named tool, Harmony, Kimi K3 or calls holding free text', () => {
  for (const format of formatNames()) {
    if (!getFormat(format).guided) continue;
    const c = GUIDED_CASES[format] as GuidedCase;
    const name = c.tools[0]?.function.name as string;
    const harmony = WHOLE_TEXT.has(format);
    assert.equal(markupPlan(tagOf(format, 'auto')) !== null, !harmony && !FREE_TEXT_CALLS.has(format), `${format} auto`);
    assert.equal(markupPlan(tagOf(format, 'required')), null, `${format} required`);
    assert.equal(markupPlan(tagOf(format, { type: 'function', function: { name } })), null, `${format} named`);
    assert.equal(markupPlan(tagOf(format, 'auto', [])) !== null, !harmony, `${format} without tools`);
  }
  const tag = tagOf('hermes', 'auto');
  const top = tag.format;
  assert.equal(top.type, 'triggered_tags');
  if (top.type !== 'triggered_tags') return;
  const variant = (patch: object): StructuralTag => ({ type: 'structural_tag', format: { ...top, ...patch } });
  assert.equal(markupPlan(variant({ at_least_one: true })), null, 'at_least_one');
  assert.equal(markupPlan(variant({ stop_after_first: true })), null, 'stop_after_first');
  const anyTextTag = { ...top.tags[0], content: { type: 'any_text' } };
  assert.equal(markupPlan(variant({ tags: [anyTextTag] })), null, 'a tag holding free text');
  assert.equal(markupPlan({ type: 'structural_tag', format: { type: 'sequence', elements: [top] } }), null, 'a sequence');
  const plan = markupPlan(tag);
  assert.deepEqual(plan?.patterns, ['<tool_call>', '<think>', '</think>']);
  assert.deepEqual(plan?.ends, ['}\n</tool_call>']);
});

/** The strings a format's free text is scanned for and the ends of its tags, from its tag. */
function markupOf(grammar: CompiledGrammar): { patterns: readonly string[]; ends: readonly string[] } {
  return markupPlan(grammar.tag) ?? { patterns: [], ends: [] };
}

test('every format: its cases broken at every offset give the whole-text feed’s result', async () => {
  for (const [format, c] of Object.entries(GUIDED_CASES)) {
    const grammar = await compileFormatGrammar(getFormat(format).guided!, c.tools, 'auto');
    const { patterns } = markupOf(grammar);
    const trigger = patterns[0] ?? '<think>';
    const inserts = ['\u0007', '<think>', trigger, trigger.slice(0, -1)];
    for (const text of [c.clean, c.hallucinated.text, c.outOfRange.text, ...(c.reasoning ? [c.reasoning] : [])]) {
      for (let i = 0; i <= text.length; i++) {
        const before = text.slice(0, i);
        const after = text.slice(i);
        for (const insert of inserts) await same(grammar, before + insert + after, `${format}: ${JSON.stringify(insert)} at ${i}`);
        await same(grammar, before, `${format}: cut at ${i}`);
        await same(grammar, before, `${format}: cut at ${i}`, 'length');
      }
    }
  }
});

const random = seededRandom;

/** A completion of prose, near-triggers, end strings, think blocks and calls (clean, refused, cut) in random order. */
function generate(next: () => number, c: GuidedCase, patterns: readonly string[], ends: readonly string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const trigger = patterns[0] ?? '';
  const callOf = (text: string) => (trigger && text.includes(trigger) ? text.slice(text.indexOf(trigger)) : text);
  const calls = [callOf(c.clean), callOf(c.hallucinated.text), callOf(c.outOfRange.text)];
  const words = ['The', 'forecast', 'for', 'Paris', 'é', '😀', '{', '}', '"name": ', '<', '|', '\n', ' ', '<tool', '</', 'x'];
  const parts: string[] = [];
  const n = 1 + Math.floor(next() * 12);
  for (let i = 0; i < n; i++) {
    const kind = next();
    if (kind < 0.35) parts.push(Array.from({ length: 1 + Math.floor(next() * 30) }, () => pick(words)).join(''));
    else if (kind < 0.5 && patterns.length) {
      const p = pick(patterns);
      const k = Math.floor(next() * p.length);
      parts.push(pick([p.slice(0, k), p.slice(k), p.slice(0, k) + 'x' + p.slice(k + 1), p.slice(0, k) + p.slice(0, k)]));
    } else if (kind < 0.6 && ends.length) parts.push(pick(ends));
    else if (kind < 0.68) parts.push(`<think>${pick(words)}</think>`);
    else if (kind < 0.72) parts.push(pick(patterns.length ? patterns : ['<think>']));
    else if (kind < 0.78) {
      const call = pick(calls);
      parts.push(call.slice(0, Math.floor(next() * call.length)));
    } else parts.push(next() < 0.85 ? (calls[0] as string) : pick(calls));
  }
  // Long prose somewhere, so that free text is really skipped.
  if (next() < 0.5) parts.splice(Math.floor(next() * parts.length), 0, 'Some prose with no markup at all. '.repeat(20));
  return parts.join('');
}

test('generated completions: prose with near-triggers, calls anywhere, think blocks — the whole-text feed’s result', async () => {
  // Another seed or more completions: TOOLSCOPE_PROPERTY_SEED, TOOLSCOPE_PROPERTY_RUNS.
  const seed = Number(process.env.TOOLSCOPE_PROPERTY_SEED ?? 3906);
  const runs = Number(process.env.TOOLSCOPE_PROPERTY_RUNS ?? 400);
  let rejected = 0;
  let accepted = 0;
  for (const [format, c] of Object.entries(GUIDED_CASES)) {
    // With the case's tools (triggered tags), and without any (free text throughout).
    for (const tools of [c.tools, []]) {
      const grammar = await compileFormatGrammar(getFormat(format).guided!, tools, 'auto');
      const { patterns, ends } = markupOf(grammar);
      const next = random(seed + format.length + tools.length);
      for (let i = 0; i < (tools.length ? runs : runs / 4); i++) {
        const text = generate(next, c, patterns, ends);
        const finish = next() < 0.2 ? 'length' : 'stop';
        const result = await same(grammar, text, `${format} #${i} (seed ${seed})`, finish, next() < 0.1 ? 'constrain' : 'skip');
        if (result.accepted) accepted++;
        else rejected++;
      }
    }
  }
  // Both verdicts were met often, or the comparison proved less than it says.
  assert.ok(accepted > 100 && rejected > 100, `accepted ${accepted}, rejected ${rejected}`);
});

test('a matcher kept and reset for the next what-if (takeMatcher) gives what a new matcher gives, whatever state it was left in', async () => {
  const seed = Number(process.env.TOOLSCOPE_PROPERTY_SEED ?? 3906);
  const runs = Number(process.env.TOOLSCOPE_PROPERTY_RUNS ?? 400) / 4;
  let compared = 0;
  for (const [format, c] of Object.entries(GUIDED_CASES)) {
    for (const choice of ['auto', 'required'] as const) {
      const grammar = await compileFormatGrammar(getFormat(format).guided!, c.tools, choice);
      // Near-triggers and end strings of the format's auto tag, for both tool choices.
      const { patterns, ends } = markupOf(await compileFormatGrammar(getFormat(format).guided!, c.tools, 'auto'));
      const next = random(seed + format.length);
      for (let i = 0; i < runs; i++) {
        const completion = { text: generate(next, c, patterns, ends), tokens: [], finishReason: next() < 0.2 ? 'length' : 'stop' };
        const options = { reasoning: next() < 0.1 ? ('constrain' as const) : ('skip' as const) };
        // Kept from the run before (left accepted, terminated, refused or past an excluded string), reset.
        const reused = await whatIf(grammar, completion, options);
        // A new one: the kept matcher is held aside, so the what-if makes its own.
        const held = await takeMatcher(grammar);
        const fresh = await whatIf(grammar, completion, options);
        held.dispose();
        assert.deepEqual(reused, fresh, `${format} ${choice} #${i} (seed ${seed}): ${JSON.stringify(completion.text)}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 0);
});
