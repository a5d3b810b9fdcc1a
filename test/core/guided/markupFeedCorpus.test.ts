/**
 * The what-if over the markup only gives the whole-text feed's verdict, anchor, words and allowed set on every
 * record the analysis sends to the grammar engine: the bundled samples, the real-failure fixtures, the generated
 * Kimi K2 corpus and the bench's corpus records. The analysis runs with an in-process engine that answers each
 * what-if both ways and keeps every difference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import type { GrammarEngine } from '../../../src/core/guided/grammarEngine.ts';
import type { WhatIfOutcome } from '../../../src/core/guided/engineProtocol.ts';
import { whatIfForRequest } from '../../../src/core/guided/whatIf.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { isTraceFileName } from '../../../src/core/trace/traceFileNames.ts';
import { readTraceItems } from '../../../src/io/trace/traceIndex.ts';
import { loadRealCases, traceText } from '../../fixtures/real/realCase.ts';
import { generateCorpus } from '../../fixtures/kimiK2Corpus.ts';
import { corpusRecord } from '../../../bench/processBench.ts';

/** Answers each what-if with the whole-text feed, after running the markup-only feed beside it. */
class BothFeeds implements GrammarEngine {
  readonly differences: string[] = [];
  /** What-ifs that ran, and how many of them were not accepted. */
  runs = 0;
  rejected = 0;
  warmUp(): void {}
  async whatIf(...[request, completion, options]: Parameters<GrammarEngine['whatIf']>): Promise<WhatIfOutcome> {
    const markup = await whatIfForRequest(request, completion, { ...options, feed: 'markup' });
    const whole = await whatIfForRequest(request, completion, { ...options, feed: 'whole' });
    const a = markup.ran ? markup.result : markup;
    const b = whole.ran ? whole.result : whole;
    if (!isDeepStrictEqual(a, b))
      this.differences.push(`${JSON.stringify(completion.text).slice(0, 200)}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
    if (!whole.ran) return whole;
    this.runs++;
    if (!whole.result.accepted) this.rejected++;
    return { ran: true, result: whole.result, compileMs: whole.grammar.compileMs };
  }
  constrain(): Promise<string> {
    throw new Error('not used by the analysis');
  }
}

test('samples, real-failure fixtures and corpora: the markup-only what-if answers as the whole-text feed', async () => {
  const engine = new BothFeeds();
  const analyzer = new Analyzer({}, { grammarEngine: engine });
  const samples = fileURLToPath(new URL('../../../samples/', import.meta.url));
  for (const name of readdirSync(samples).filter(isTraceFileName).sort()) {
    for await (const item of readTraceItems(join(samples, name))) if (item.kind !== 'error') await analyzer.analyzeWithGuided(item.loaded);
  }
  for (const c of loadRealCases()) {
    const cased = new Analyzer({ startInReasoning: c.options?.startInReasoning, format: c.options?.format }, { grammarEngine: engine });
    for (const record of importText(traceText(c), c.id).records) await cased.analyzeWithGuided(record);
  }
  const tools = [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ];
  for (const completion of generateCorpus(150)) {
    const line = JSON.stringify({
      toolscope: 1,
      id: completion.name,
      request: { model: 'kimi-k2', messages: [], tools },
      completion: { text: completion.text },
    });
    for (const record of importText(line, completion.name).records) await analyzer.analyzeWithGuided(record);
  }
  for (let i = 0; i < 42; i++)
    for (const record of importText(corpusRecord(i), `bench-${i}`).records) await analyzer.analyzeWithGuided(record);
  assert.deepEqual(engine.differences, []);
  // Both verdicts were met, or the comparison proved less than it says.
  assert.ok(engine.runs > 150 && engine.rejected > 20, `${engine.runs} what-ifs, ${engine.rejected} not accepted`);
});
