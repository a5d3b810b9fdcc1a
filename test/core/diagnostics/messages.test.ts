/**
 * Every diagnostic message read as a sentence: every registered kind is rendered with its variants (the samples,
 * the web fixtures and the real-failure corpus with the guided what-if and a vLLM profile, plus the leak rule's
 * fragments, delivered calls, error bodies and what-if interventions built here), and no message or hint doubles a
 * word ("are the arguments are") or leaves a slot empty ("(no name)", "call  (", "()", a dangling "undefined").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Analyzer, type AnalysisOptions } from '../../../src/core/analysis.ts';
import { DIAGNOSTIC_KINDS } from '../../../src/core/diagnostics/registry.ts';
import type { Diagnostic } from '../../../src/core/diagnostics/diagnostic.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';
import { loadRealCases, traceText } from '../../fixtures/real/realCase.ts';
import { LEAKS, UNREGISTERED } from '../../fixtures/leakSamples.ts';
import { completionResponse, record, TOOLS } from './analyze.helpers.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Built here: the variants the corpus may not hold. */
function builtLines(): string[] {
  const delivered = [{ id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' }];
  const content = (text: string, calls: typeof delivered = []) =>
    JSON.stringify(record({ response: completionResponse(text, calls, calls.length ? 'tool_calls' : 'stop') }));
  const KIMI = LEAKS.find((r) => r.format === 'kimi_k2')!.call;
  return [
    ...LEAKS.flatMap((r) => [content(r.call), content(r.call, delivered), content(r.opener, delivered)]),
    ...UNREGISTERED.map((r) => content(r.text)),
    content('</tool_call>'),
    content('<tool_call></tool_call>'),
    content('Checking <|tool_call'),
    content(`${KIMI}\n${KIMI.replace('Paris', 'Rome')}`, delivered),
    content('<tool_call>\n{"name": "get_weather", "arguments": ""}\n</tool_call>'),
    '{"error":"error parsing tool call: raw=\'ls -R\\n\', err=invalid character \'l\' looking for beginning of value"}',
    '{"error":{"code":500,"message":"Failed to parse input at pos 12: <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{}","type":"server_error"},"status":500}',
    JSON.stringify(
      record({
        meta: { format: 'harmony' },
        completion: { text: '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>' },
      }),
    ),
    JSON.stringify(record({ meta: { format: 'kimi_k2' }, completion: { text: KIMI.replace('"Paris"', '5') } })),
    JSON.stringify(record({ meta: { format: 'kimi_k2' }, completion: { text: KIMI.replace('get_weather', 'get_wether') } })),
  ];
}

async function render(): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const services = nodeServices();
  const run = async (text: string, options: AnalysisOptions = {}) => {
    const analyzer = new Analyzer(options, services);
    for (const r of importText(text).records) out.push(...(await analyzer.analyzeWithGuided(r)).diagnostics);
  };
  for (const dir of ['samples', 'test/webview/fixtures'])
    for (const f of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.jsonl'))) {
      const text = readFileSync(join(ROOT, dir, f), 'utf8');
      await run(text);
      await run(text, { vllmProfile: 'A' });
    }
  for (const c of loadRealCases()) await run(traceText(c), { startInReasoning: c.options?.startInReasoning, format: c.options?.format });
  await run(builtLines().join('\n'));
  // A completion above a (tiny) size limit: record-too-large.
  await run(JSON.stringify(record({ completion: { text: LEAKS[0]!.call } })), { maxCompletionMB: 0.00001 });
  assert.ok(TOOLS.length > 0);
  return out;
}

const rendered = render();

/** The same word twice in a row ("are are", "the the"), leaving out quoted text and numbers. */
function doubledWord(text: string): string | null {
  const prose = text.replace(/"(?:[^"\\]|\\.)*"/gu, '"…"').replace(/`[^`]*`/gu, '`…`');
  const m = /\b([A-Za-z]{2,})\s+\1\b/iu.exec(prose);
  return m ? m[0] : null;
}

/** A phrase that repeats a clause ("are the arguments are"): the same verb before and after one short phrase. */
function repeatedClause(text: string): string | null {
  const m = /\b(are|is) the arguments (are|is)\b/iu.exec(text);
  return m ? m[0] : null;
}

const EMPTY_SLOTS = [/\(no name\)/u, /\(\s*\)/u, /\bundefined\b/u, /\bnull\b(?! value|,| or|\))/u, /call {2}/u, /"" \(/u, /: ;/u, /, ,/u];

test('every registered kind is rendered, with the variants of the leak rule, error bodies and the what-if', async () => {
  const all = await rendered;
  const kinds = new Set(all.map((d) => d.kind));
  const missing = Object.keys(DIAGNOSTIC_KINDS).filter((k) => !kinds.has(k));
  assert.deepEqual(missing, [], `kinds no message was rendered for`);
  const variants = new Set(all.map((d) => `${d.kind}@${d.detail ?? ''}`));
  for (const v of [
    'content-leak@opener-only',
    'content-leak@closer-only',
    'content-leak@markers-only',
    'content-leak@kimi_k2',
    'content-leak@hermes',
    'stream-error@error-body',
    'guided-would-block@header-spelling',
    'guided-would-block@arguments',
    'guided-would-block@tool-name',
    'invalid-arguments-json@leaked',
  ])
    assert.ok(variants.has(v), `${v} was not rendered`);
});

test('no message or hint doubles a word or leaves a slot empty', async () => {
  const bad: string[] = [];
  for (const d of await rendered) {
    for (const [field, text] of [
      ['message', d.message],
      ['hint', d.hint],
    ] as const) {
      if (!text.trim()) bad.push(`${d.kind}@${d.detail ?? ''} ${field} is empty`);
      const doubled = doubledWord(text) ?? repeatedClause(text);
      if (doubled) bad.push(`${d.kind}@${d.detail ?? ''} ${field} doubles "${doubled}": ${text}`);
      const unquoted = text.replace(/"(?:[^"\\]|\\.)*"/gu, '"…"');
      for (const slot of EMPTY_SLOTS)
        if (slot.test(unquoted)) bad.push(`${d.kind}@${d.detail ?? ''} ${field} has an empty slot ${slot}: ${text}`);
    }
  }
  assert.deepEqual([...new Set(bad)], []);
});
