/**
 * Grammar what-if (DESIGN §9: < 100 ms for a 4k-token completion with a compiled grammar; ≤ 0.2 ms per 1k tokens at
 * 36k, linear to 100k): compile time of the Kimi structural tag (first compile includes WASM start-up), cached
 * look-up, and what-if time at 4k/36k/100k tokens, per 1k tokens.
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { generateCompletion } from './parserBench.ts';
import { createHash } from 'node:crypto';
import { whatIf, whatIfForRequest } from '../src/core/guided/index.ts';
import { compileFormatGrammar, keepMatcher, newMatcher, takeMatcher, type CompiledGrammar } from '../src/core/guided/xgrammar.ts';
import { grammarStartOf, whatIfForRequestJson } from '../src/core/guided/whatIf.ts';
import { corpusRecord } from './processBench.ts';
import { feedMarkupOnly, MARKUP_FEED_MIN_CHARS, markupPlan } from '../src/core/guided/markupFeed.ts';
import { tagExcludes } from '../src/core/guided/tagTools.ts';
import {
  createCompiler,
  createMatcher,
  createTokenizerInfo,
  grammarFromEBNF,
  type XgCompiledGrammar,
  type XgMatcher,
} from '../src/core/guided/xgrammarModule.ts';
import { BYTE_VOCABULARY } from '../src/core/guided/byteVocabulary.ts';
import { formatNames, getFormat } from '../src/core/formats/registry.ts';
import type { FormatGuidedGrammar } from '../src/core/formats/toolCallFormat.ts';
import { GUIDED_CASES } from '../test/fixtures/guided/index.ts';
import { GuidedEngine } from '../src/io/guided/guidedEngine.ts';
import { suiteSchemas } from '../test/fixtures/hostileSchemas.ts';
import { KimiSplitter } from '../src/core/formats/kimiK2/kimiSplitter.ts';
import type { ChatTool } from '../src/core/trace/record.ts';
import type { Token } from '../src/core/tokens/token.ts';

interface CorpusLine {
  request: { tools: ChatTool[] };
  completion: { text: string };
}

/** The Kimi K2 completions of these benches go through its tag, as the what-if compiles it for a Kimi K2 record. */
const KIMI = { format: 'kimi_k2' };
const compileKimiGrammar = (tools: readonly ChatTool[], toolChoice: 'auto' | 'required'): Promise<CompiledGrammar> =>
  compileFormatGrammar(getFormat(KIMI.format).guided as FormatGuidedGrammar, tools, toolChoice);

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Median wall and CPU time of one run, over at least `minRuns` runs and `minMs`. CPU time (this process's threads)
 * and medians keep the figure steady on a machine shared with other work.
 */
async function mediansAsync(fn: () => Promise<unknown>, minRuns = 7, minMs = 300): Promise<{ ms: number; cpuMs: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  const start = performance.now();
  while (wall.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    const c = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(c);
    wall.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
  }
  return { ms: median(wall), cpuMs: median(cpu) };
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
  log('  tokens     size     what-if   per 1k tokens   CPU what-if   CPU per 1k   verdict   (medians)');
  log("  goal: ≤ 0.2 ms per 1k tokens at 36k, linear to 100k; judged on CPU time (wall time follows the machine's load)");
  const splitter = new KimiSplitter();
  const sizes = [4_000, 36_000, 100_000].map((n) => {
    const text = generateCompletion(n);
    return { n, text, tokens: splitter.tokenize(text) };
  });
  // Warm: the first runs of xgrammar's matcher also compile its WASM functions (V8 tiers them up in the background:
  // the first 36k run costs ~10× the CPU of the later ones). A record's what-if in a fresh process pays that once.
  for (let i = 0; i < 3; i++) for (const { text } of sizes) await whatIf(auto, { text, tokens: [], finishReason: 'stop' });
  const perK: number[] = [];
  for (const { n, text, tokens } of sizes) {
    let accepted = false;
    const { ms, cpuMs } = await mediansAsync(async () => {
      accepted = (await whatIf(auto, { text, tokens, finishReason: 'stop' })).accepted;
    });
    const k = (cpuMs / tokens.length) * 1000;
    perK.push(k);
    const budget =
      n === 4_000
        ? ms < 100
          ? '  (budget 100 ms: ok)'
          : '  (budget 100 ms: OVER)'
        : n === 36_000
          ? k <= 0.2
            ? '  (goal 0.2 ms/1k: ok)'
            : '  (goal 0.2 ms/1k: OVER)'
          : '';
    log(
      `  ${String(tokens.length).padStart(7)}  ${(Buffer.byteLength(text) / 1000).toFixed(0).padStart(5)} KB  ${ms.toFixed(2).padStart(8)} ms  ${((ms / tokens.length) * 1000).toFixed(3).padStart(8)} ms  ${cpuMs.toFixed(2).padStart(9)} ms  ${k.toFixed(3).padStart(8)} ms    ${accepted ? 'accepted' : 'rejected'}${budget}`,
    );
  }
  log(`  CPU cost per token at 100k vs 36k: ${((perK[2] ?? 0) / (perK[1] ?? 1)).toFixed(2)}× (1.0 = linear)`);
  log('  (these completions are all calls: nothing for the markup-only feed to skip)');
  await logProseHeavy(log, auto, splitter);
  await logBodySkips(log, auto, [
    { name: 'calls only, 36k', text: sizes[1]?.text ?? '', tokens: sizes[1]?.tokens.length ?? 1 },
    { name: 'prose-heavy', text: proseHeavyCompletion(36_000, 0.9), tokens: splitter.tokenize(proseHeavyCompletion(36_000, 0.9)).length },
  ]);
  await logMatcherFloor(log, sizes[1] as { text: string; tokens: readonly unknown[] });
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

/**
 * A completion that is mostly prose (`share` of its tokens free text, a think block first) and one call whose query
 * makes the rest.
 */
function proseHeavyCompletion(tokens: number, share: number): string {
  const sentences = [
    'The forecast for Paris: light rain in the morning, 14 °C, clearing by noon; "umbrella" advised. ',
    'Compare that with last week (see <table 3> and the notes {a, b}), where the wind came from the north-west. ',
    'I will not call anything yet: first a summary of the sources, then one search for the remaining question.\n',
  ];
  const prose: string[] = [];
  for (let i = 0, length = 0; length / 4 < tokens * share; i++) length += prose[prose.push(sentences[i % 3] as string) - 1]?.length ?? 0;
  const query = 'what the forecast says for the coming days in Paris and in the cities around it '.repeat(
    Math.max(1, Math.round((tokens * (1 - share) * 4) / 81)),
  );
  return `<think>The user wants a long answer and one search.</think>${prose.join('')}<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": ${JSON.stringify(query)}, "top_k": 5}<|tool_call_end|><|tool_calls_section_end|>`;
}

/**
 * The what-if over the markup only (markupFeed.ts) against the whole-text feed on a prose-heavy completion: 36k
 * tokens, 90 % of them free text, one call. CPU medians; both feeds must give the same result.
 */
async function logProseHeavy(log: (line: string) => void, grammar: CompiledGrammar, splitter: KimiSplitter): Promise<void> {
  const text = proseHeavyCompletion(36_000, 0.9);
  const tokens = splitter.tokenize(text);
  const free = text.indexOf('<|tool_calls_section_begin|>') - text.indexOf('</think>');
  const results: string[] = [];
  const cpu: Record<'markup' | 'whole', number> = { markup: 0, whole: 0 };
  for (const feed of ['markup', 'whole'] as const) {
    for (let i = 0; i < 3; i++) await whatIf(grammar, { text, tokens, finishReason: 'stop' }, { feed });
    const { cpuMs } = await mediansAsync(async () => {
      results.push(JSON.stringify(await whatIf(grammar, { text, tokens, finishReason: 'stop' }, { feed })));
    });
    cpu[feed] = cpuMs;
  }
  const perK = (ms: number, n = tokens.length) => (ms / n) * 1000;
  log(
    `  prose-heavy: ${tokens.length} tokens, ${((free / text.length) * 100).toFixed(0)} % of the text free prose, one call: markup only ${perK(cpu.markup).toFixed(4)} ms per 1k tokens ` +
      `(${perK(cpu.markup) <= 0.05 ? 'goal ≤ 0.05: ok' : 'goal ≤ 0.05: OVER'}), whole text ${perK(cpu.whole).toFixed(3)} ms per 1k (${(cpu.whole / cpu.markup).toFixed(0)}×); ` +
      `same result both ways: ${new Set(results).size === 1 ? 'yes' : 'NO'} (CPU medians)`,
  );
  // What the markup-only feed hands the matcher, and the CPU time inside the matcher's calls against the feed's own.
  const fed = await feedCounted(grammar, text, tokens);
  log(
    `    fed to xgrammar: ${fed.calls} strings, ${fed.chars} of ${text.length} characters (the call: ${text.length - text.indexOf('<|tool_calls_section_begin|>')}), ` +
      `${fed.tokens} stop-token tries. Paired runs: the what-if ${perK(fed.whatIfMs).toFixed(4)} ms per 1k tokens, its feed ${perK(fed.feedMs).toFixed(4)}, ` +
      `of which xgrammar's matcher ${perK(fed.matcherMs).toFixed(4)} (${((fed.matcherMs / fed.whatIfMs) * 100).toFixed(0)} % of the what-if), ` +
      `the scan and the rest ${perK(fed.whatIfMs - fed.matcherMs).toFixed(4)} (CPU medians)`,
  );
  // The same prose with a call of a few tokens: what the prose itself costs the what-if.
  const short = text.replace(/"query": "[^"]*"/, '"query": "forecast Paris"');
  const shortTokens = splitter.tokenize(short);
  for (let i = 0; i < 3; i++) await whatIf(grammar, { text: short, tokens: shortTokens, finishReason: 'stop' });
  const { cpuMs: shortMs } = await mediansAsync(() => whatIf(grammar, { text: short, tokens: shortTokens, finishReason: 'stop' }));
  log(
    `    the same prose with a short call (${shortTokens.length} tokens, ${(((short.indexOf('<|tool_calls_section_begin|>') - short.indexOf('</think>')) / short.length) * 100).toFixed(1)} % free prose): ${perK(shortMs, shortTokens.length).toFixed(4)} ms per 1k tokens (CPU median)`,
  );
}

/**
 * The markup-only feed of a completion (after its reasoning) through a matcher that counts what it is fed and times
 * its calls: strings and characters fed, stop-token tries, and median CPU of the whole feed and of the matcher's
 * calls within it. Each run of the feed is paired with a run of the what-if itself (`whatIfMs`), so that both
 * medians are taken under the same load.
 */
async function feedCounted(
  grammar: CompiledGrammar,
  text: string,
  tokens: readonly Token[],
): Promise<{ calls: number; chars: number; tokens: number; whatIfMs: number; feedMs: number; matcherMs: number }> {
  const plan = markupPlan(grammar.tag);
  if (!plan) throw new Error('the tag has no markup-only plan');
  const excludes = tagExcludes(grammar.tag);
  const start = grammarStartOf(text, 'skip') ?? 0;
  const inner = await newMatcher(grammar);
  let counts = { calls: 0, chars: 0, tokens: 0, us: 0 };
  const timed = <T>(f: () => T): T => {
    const t = process.cpuUsage();
    try {
      return f();
    } finally {
      const u = process.cpuUsage(t);
      counts.us += u.user + u.system;
    }
  };
  const matcher: XgMatcher = {
    ...inner,
    acceptString: (s) => {
      counts.calls++;
      counts.chars += s.length;
      return timed(() => inner.acceptString(s));
    },
    acceptToken: (id) => {
      counts.tokens++;
      return timed(() => inner.acceptToken(id));
    },
    rollBack: (n) => timed(() => inner.rollBack(n)),
  };
  const cpuMs = async (f: () => Promise<unknown>): Promise<number> => {
    const c = process.cpuUsage();
    await f();
    const u = process.cpuUsage(c);
    return (u.user + u.system) / 1000;
  };
  const runs: { whatIf: number; feed: number; matcher: number }[] = [];
  try {
    const feed = async () => {
      inner.reset();
      counts = { calls: 0, chars: 0, tokens: 0, us: 0 };
      const outcome = await feedMarkupOnly(matcher, grammar.vocabulary, excludes, plan, text, start, text.length);
      if (!outcome.ok || !matcher.acceptToken(grammar.vocabulary.stopIds[0] as number)) throw new Error('the completion was refused');
    };
    for (let i = 0; i < 3; i++) await feed();
    for (let i = 0; i < 15; i++) {
      const whatIfMs = await cpuMs(() => whatIf(grammar, { text, tokens, finishReason: 'stop' }, { feed: 'markup' }));
      const feedMs = await cpuMs(feed);
      runs.push({ whatIf: whatIfMs, feed: feedMs, matcher: counts.us / 1000 });
    }
    return {
      calls: counts.calls,
      chars: counts.chars,
      tokens: counts.tokens,
      whatIfMs: median(runs.map((r) => r.whatIf)),
      feedMs: median(runs.map((r) => r.feed)),
      matcherMs: median(runs.map((r) => r.matcher)),
    };
  } finally {
    inner.dispose();
  }
}

/**
 * What leaving out the calls' bare-string bodies (stringBodySkips.ts) gains and costs: the markup-only feed with them
 * left out against the same feed with every body fed, alternated run by run (CPU medians). The calls-only completion's
 * strings are shorter than MIN_BODY_CHARS, so there it pays the walk over the arguments and leaves nothing out.
 */
async function logBodySkips(
  log: (line: string) => void,
  grammar: CompiledGrammar,
  completions: readonly { name: string; text: string; tokens: number }[],
): Promise<void> {
  const plan = markupPlan(grammar.tag);
  if (!plan) throw new Error('the tag has no markup-only plan');
  const allFed = { ...plan, bodies: null };
  const excludes = tagExcludes(grammar.tag);
  const matcher = await newMatcher(grammar);
  try {
    for (const { name, text, tokens } of completions) {
      const start = grammarStartOf(text, 'skip') ?? 0;
      const cpuMs = async (p: typeof plan): Promise<number> => {
        matcher.reset();
        const c = process.cpuUsage();
        const outcome = await feedMarkupOnly(matcher, grammar.vocabulary, excludes, p, text, start, text.length);
        const u = process.cpuUsage(c);
        if (!outcome.ok) throw new Error('the completion was refused');
        return (u.user + u.system) / 1000;
      };
      const left: number[] = [];
      const fed: number[] = [];
      for (let i = 0; i < 4; i++) {
        await cpuMs(plan);
        await cpuMs(allFed);
      }
      for (let i = 0; i < 21; i++) {
        left.push(await cpuMs(plan));
        fed.push(await cpuMs(allFed));
      }
      const perK = (ms: number) => ((ms / tokens) * 1000).toFixed(4);
      log(
        `  ${name}: the markup-only feed ${perK(median(left))} ms per 1k tokens with bare-string bodies left out, ${perK(median(fed))} with every body fed (21 alternated pairs, CPU medians)`,
      );
    }
  } finally {
    matcher.dispose();
  }
}

/**
 * What xgrammar's matcher itself costs: the same 36k-token text fed in the same strings of 4096 characters to the
 * simplest grammar that takes it (`[ -~]*`, printable ASCII) and to the Kimi tag. The what-if cannot go below the
 * first figure by feeding differently; only feeding fewer characters could.
 */
async function logMatcherFloor(log: (line: string) => void, { text, tokens }: { text: string; tokens: readonly unknown[] }): Promise<void> {
  const info = await createTokenizerInfo([...BYTE_VOCABULARY.entries], [...BYTE_VOCABULARY.stopIds]);
  const compiler = await createCompiler(info);
  const trivial = await grammarFromEBNF('root ::= [ -~]*', 'root');
  const floor = await compiler.compileGrammar(trivial);
  const tag = await compileKimiGrammar(TOOLS, 'auto');
  // What follows the reasoning, as the what-if feeds it (the tag refuses `<think>` in free text).
  const body = text.slice(text.indexOf('</think>') + '</think>'.length);
  const charsPerToken = text.length / tokens.length;
  const feedCpuMs = async (compiled: XgCompiledGrammar): Promise<number> => {
    const { cpuMs } = await mediansAsync(async () => {
      const matcher = await createMatcher(compiled, [...BYTE_VOCABULARY.stopIds]);
      try {
        for (let at = 0; at < body.length; at += 4096) {
          if (!matcher.acceptString(body.slice(at, at + 4096))) throw new Error(`refused at ${at}`);
        }
      } finally {
        matcher.dispose();
      }
    });
    return cpuMs;
  };
  for (const [name, compiled] of [
    ['[ -~]*', floor],
    ['Kimi tag', tag.compiled],
  ] as const) {
    const cpuMs = await feedCpuMs(compiled);
    log(
      `  xgrammar matcher alone, ${name.padEnd(8)}: ${((cpuMs * 1e6) / body.length).toFixed(0)} ns per character, ${((cpuMs / body.length) * charsPerToken * 1000).toFixed(3)} ms per 1k tokens (${charsPerToken.toFixed(2)} characters a token)`,
    );
  }
  trivial.dispose();
}

/**
 * The grammar engine in its worker (guidedEngine.ts): start-up (thread + WASM module + compiler), one record's
 * what-if as one round trip next to the in-process time, and the whole JSON-Schema-Test-Suite as tool schemas.
 */
export async function benchGuidedWorker(log: (line: string) => void): Promise<void> {
  log('Grammar engine worker (xgrammar isolated in a worker thread)');
  let lines = 0;
  const engine = new GuidedEngine({ onLog: () => lines++ });
  try {
    const t0 = performance.now();
    const first = await engine.whatIf({ tools: TOOLS, tool_choice: 'auto' }, { text: 'hi', tokens: [] }, KIMI);
    log(
      `  start-up: ${engine.stats.startMs[0]?.toFixed(0)} ms (thread, WASM module, compiler); first record ${(performance.now() - t0).toFixed(0)} ms, compile ${first.ran ? first.compileMs.toFixed(1) : '-'} ms`,
    );
    const text = generateCompletion(4_000);
    const tokens = new KimiSplitter().tokenize(text);
    const viaWorker = await timeAsync(() =>
      engine.whatIf({ tools: TOOLS, tool_choice: 'auto' }, { text, tokens, finishReason: 'stop' }, KIMI),
    );
    const auto = await compileKimiGrammar(TOOLS, 'auto');
    const inProcess = await timeAsync(() => whatIf(auto, { text, tokens, finishReason: 'stop' }));
    log(
      `  ${tokens.length}-token what-if: ${viaWorker.toFixed(2)} ms per record through the worker (one round trip), ${inProcess.toFixed(2)} ms in-process`,
    );

    const suite = suiteSchemas(join(process.cwd(), 'test', 'fixtures', 'json-schema-test-suite'));
    const call =
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": "x"}<|tool_call_end|><|tool_calls_section_end|>';
    const startsBefore = engine.stats.starts;
    const compileMs: number[] = [];
    let refused = 0;
    let aborted = 0;
    const t1 = performance.now();
    for (const { schema } of suite) {
      const r = await engine.whatIf(
        { tools: [{ type: 'function', function: { name: 'f', parameters: schema as Record<string, never> } }], tool_choice: 'auto' },
        { text: call, tokens: [] },
        KIMI,
      );
      if (r.ran) compileMs.push(r.compileMs);
      else if (/^xgrammar cannot compile|does not support/.test(r.why)) refused++;
      else aborted++;
    }
    const total = performance.now() - t1;
    log(
      `  JSON-Schema-Test-Suite, ${suite.length} schemas as tool parameters: ${total.toFixed(0)} ms (${(total / suite.length).toFixed(1)} ms each); ` +
        `${compileMs.length} compiled (median ${median(compileMs).toFixed(1)} ms, max ${Math.max(...compileMs).toFixed(0)} ms), ${refused} refused by the pre-check, ` +
        `${aborted} failed in the engine, ${engine.stats.starts - startsBefore} worker restarts, ${lines} xgrammar lines to stderr`,
    );
  } finally {
    await engine.close();
  }
}

/**
 * What one record's what-if costs apart from reading its text, part by part, on the bench corpus's record shape
 * (processBench.ts `corpusRecord`: a think block, a sentence, 1–3 calls): building the tag and its cache key, the
 * cached compile look-up, a matcher made and disposed, the whole what-if in this thread, and the same job through
 * the worker (one message each way). Medians of CPU (in-process parts) and wall time (the worker's round trip).
 */
export async function benchRecordOverhead(log: (line: string) => void): Promise<void> {
  const guided = getFormat(KIMI.format).guided as FormatGuidedGrammar;
  const records = Array.from({ length: 30 }, (_, i) => JSON.parse(corpusRecord(i)) as CorpusLine);
  const perRecord = async (fn: (r: CorpusLine) => unknown): Promise<number> => {
    for (const r of records) await fn(r);
    const { cpuMs } = await mediansAsync(async () => {
      for (const r of records) await fn(r);
    }, 15);
    return (cpuMs / records.length) * 1000;
  };
  const tagUs = await perRecord((r) => guided.structuralTag(r.request.tools, undefined, {}));
  const keyUs = await perRecord((r) =>
    createHash('sha256')
      .update(JSON.stringify(guided.structuralTag(r.request.tools, undefined, {})))
      .digest('hex'),
  );
  const cachedUs = await perRecord((r) => compileFormatGrammar(guided, r.request.tools, undefined));
  const jsonOf = (r: CorpusLine) => JSON.stringify({ tools: r.request.tools, tool_choice: null });
  const jsonUs = await perRecord(jsonOf);
  const grammar = await compileFormatGrammar(guided, records[0]?.request.tools, undefined);
  const matcherUs = await perRecord(async () => (await newMatcher(grammar)).dispose());
  const resetUs = await perRecord(async () => keepMatcher(grammar, await takeMatcher(grammar)));
  const whatIfUs = await perRecord((r) =>
    whatIfForRequest(r.request, { text: r.completion.text, tokens: [], finishReason: 'tool_calls' }, KIMI),
  );
  const wholeUs = await perRecord((r) =>
    whatIfForRequest(r.request, { text: r.completion.text, tokens: [], finishReason: 'tool_calls' }, { ...KIMI, feed: 'whole' }),
  );
  const markupUs = await perRecord((r) =>
    whatIfForRequest(r.request, { text: r.completion.text, tokens: [], finishReason: 'tool_calls' }, { ...KIMI, feed: 'markup' }),
  );
  // As the worker runs it: the request as JSON, its grammar looked up by that string.
  const byJsonUs = await perRecord((r) =>
    whatIfForRequestJson(jsonOf(r), { text: r.completion.text, tokens: [], finishReason: 'tool_calls' }, KIMI),
  );
  const engine = new GuidedEngine();
  let workerUs: number;
  let burstUs: number;
  try {
    const job = (r: CorpusLine) => engine.whatIf(r.request, { text: r.completion.text, tokens: [], finishReason: 'tool_calls' }, KIMI);
    for (const r of records) await job(r);
    const { ms } = await mediansAsync(async () => {
      for (const r of records) await job(r);
    }, 15);
    workerUs = (ms / records.length) * 1000;
    // As analyze sends them: all the records' jobs at once (several in flight), answered in order.
    const burst = await mediansAsync(() => Promise.all(records.map(job)), 15);
    burstUs = (burst.ms / records.length) * 1000;
  } finally {
    await engine.close();
  }
  const chars = records.reduce((n, r) => n + r.completion.text.length, 0) / records.length;
  log(
    `Per-record what-if overhead (the bench corpus's records, ${chars.toFixed(0)} characters of completion each; medians, µs per record)`,
  );
  log(
    `  tag built ${tagUs.toFixed(1)}, + its cache key (JSON + sha256) ${keyUs.toFixed(1)}, cached compile look-up in all ${cachedUs.toFixed(1)}; the request's JSON (the worker's key) ${jsonUs.toFixed(1)}; matcher made and disposed ${matcherUs.toFixed(1)}, kept and reset ${resetUs.toFixed(1)}`,
  );
  log(
    `  what-if in this thread (CPU): ${whatIfUs.toFixed(1)} as run (whole text below ${MARKUP_FEED_MIN_CHARS} characters), ${markupUs.toFixed(1)} markup only, ${wholeUs.toFixed(1)} whole text, ${byJsonUs.toFixed(1)} as the worker runs it (grammar by the request's JSON)`,
  );
  log(
    `  through the worker (wall): ${workerUs.toFixed(1)} one record at a time (a round trip each), ${burstUs.toFixed(1)} with ${records.length} records' jobs in flight (as analyze sends them); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/**
 * Per format with a structural tag (`ToolCallFormat.guided`): compile time of its tag for the every-format case's tool,
 * and the what-if over a completion of that format — prose as the format writes it, then the case's clean call — of
 * about 4k and 36k characters, per 1k characters.
 */
export async function benchGuidedFormats(log: (line: string) => void): Promise<void> {
  log('Guided decoding per format (the tag of each format that declares one; the every-format case of test/fixtures/guided)');
  log('  format          tag             compile      what-if 4k chars   36k chars    per 1k chars at 36k');
  for (const name of formatNames()) {
    const guided = getFormat(name).guided;
    const c = GUIDED_CASES[name];
    if (!guided || !c) continue;
    // A tool set of its own per format so the compile is not a cache hit of another format's run.
    const tools: ChatTool[] = c.tools.map((t) => ({ ...t, function: { ...t.function, description: `bench ${name}` } }));
    let start = performance.now();
    const grammar = await compileFormatGrammar(guided, tools, 'auto');
    const compileMs = performance.now() - start;
    const sized = (chars: number) => {
      const prose = 'The forecast depends on the city and on how many days ahead you ask about. ';
      const said = prose.repeat(Math.max(1, Math.round((chars - c.clean.length) / prose.length)));
      // What the model says before its call, as the format writes it (gpt-oss: an analysis message); Llama writes
      // calls alone, so its prose stays bare free text, which its tag allows before the trigger.
      return `${getFormat(name).callWriter.lead(said) || said}${c.clean}`;
    };
    const times: number[] = [];
    let verdict = '';
    for (const chars of [4_000, 36_000]) {
      const text = sized(chars);
      start = performance.now();
      const r = await whatIf(grammar, { text, tokens: [], finishReason: 'stop' });
      times.push(performance.now() - start);
      verdict = r.accepted ? 'accepted' : `rejected at ${r.charOffset}`;
    }
    const perK = ((times[1] ?? 0) / (sized(36_000).length / 1000)).toFixed(3);
    log(
      `  ${name.padEnd(15)} ${(guided.builtinStyle ?? guided.shapes[0] ?? '').padEnd(15)} ${compileMs.toFixed(1).padStart(7)} ms  ${(times[0] ?? 0).toFixed(1).padStart(10)} ms  ${(times[1] ?? 0).toFixed(1).padStart(9)} ms  ${perK.padStart(9)} ms   ${verdict}`,
    );
  }
}
