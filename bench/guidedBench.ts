/**
 * Grammar what-if (DESIGN §9: < 100 ms for a 4k-token completion with a compiled grammar): compile time of the
 * Kimi structural tag (first compile includes WASM start-up), cached look-up, and what-if time at 1k/4k/16k tokens.
 */
import { generateCompletion } from './parserBench.ts';
import { compileKimiGrammar, whatIf } from '../src/core/guided/index.ts';
import { KimiSplitter } from '../src/core/tokens/index.ts';
import type { ChatTool } from '../src/core/trace/record.ts';

const TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'search',
      strict: true,
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          filters: { type: 'object', properties: { lang: { type: 'string', enum: ['en', 'de', 'fr'] }, since: { type: 'string' } } },
          top_k: { type: 'integer', minimum: 1, maximum: 20 },
        },
        required: ['query'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

async function timeAsync(fn: () => Promise<unknown>, minMs = 300): Promise<number> {
  let runs = 0;
  const start = performance.now();
  do {
    await fn();
    runs++;
  } while (performance.now() - start < minMs);
  return (performance.now() - start) / runs;
}

export async function benchGuided(log: (line: string) => void): Promise<void> {
  log('Guided decoding what-if (web-xgrammar 0.1.27, byte vocabulary + Kimi special tokens)');
  let start = performance.now();
  const auto = await compileKimiGrammar(TOOLS, 'auto');
  const coldMs = performance.now() - start;
  start = performance.now();
  const required = await compileKimiGrammar(TOOLS, 'required');
  const warmMs = performance.now() - start;
  start = performance.now();
  await compileKimiGrammar(TOOLS, 'auto');
  const cachedMs = performance.now() - start;
  log(
    `  compile: first ${coldMs.toFixed(1)} ms (WASM start-up included), another tag ${warmMs.toFixed(1)} ms (${required.route}), cached ${cachedMs.toFixed(3)} ms`,
  );
  log('  tokens     size      what-if     per 1k tokens   verdict');
  const splitter = new KimiSplitter();
  for (const n of [1_000, 4_000, 16_000]) {
    const text = generateCompletion(n);
    const tokens = splitter.tokenize(text);
    let accepted = false;
    const ms = await timeAsync(async () => {
      accepted = (await whatIf(auto, { text, tokens, finishReason: 'stop' })).accepted;
    });
    const budget = n === 4_000 ? (ms < 100 ? '  (budget 100 ms: ok)' : '  (budget 100 ms: OVER)') : '';
    log(
      `  ${String(tokens.length).padStart(7)}  ${(Buffer.byteLength(text) / 1000).toFixed(0).padStart(5)} KB  ${ms.toFixed(2).padStart(8)} ms  ${((ms / tokens.length) * 1000).toFixed(2).padStart(8)} ms    ${accepted ? 'accepted' : 'rejected'}${budget}`,
    );
  }
  // The rejection path: the last call names an undeclared tool, so the whole text is read and the reply built.
  const text = generateCompletion(4_000).replace(/functions\.search:(\d+)(?!.*functions\.search)/s, 'functions.img_gen:$1');
  const tokens = splitter.tokenize(text);
  let offset = -1;
  const ms = await timeAsync(async () => {
    const r = await whatIf(auto, { text, tokens, finishReason: 'stop' });
    offset = r.accepted ? -1 : r.charOffset;
  });
  log(`  ${String(tokens.length).padStart(7)} tokens, rejected at char ${offset} of ${text.length}: ${ms.toFixed(2)} ms`);
}
