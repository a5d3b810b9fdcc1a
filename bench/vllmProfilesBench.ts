/**
 * The reference parser and the three vLLM-behaviour profiles on identical delta sequences, 1k → 100k deltas:
 * time per run, the ratio to the reference, and how cost per delta grows with length (generation B re-parses the
 * whole text on every delta, so it grows quadratically). The input is the shape ../shared/data/vllm-kimi timed
 * vLLM's own parsers on: five sentences, then a section of N search calls, one pseudo-token per delta (special
 * tokens whole, other text split at word/space/punctuation), the inputs of the side-by-side bench (vllmSideBySide.ts).
 */
import { KimiK2Parser } from '../src/core/formats/kimiK2/kimiK2Parser.ts';
import { planDeltas, pseudoTokenize, type VllmDelta } from '../src/core/formats/kimiK2/vllm/vllmDeltas.ts';
import type { VllmGeneration } from '../src/core/formats/kimiK2/vllm/vllmProfile.ts';
import { VLLM_GENERATIONS, vllmProfile } from '../src/core/formats/kimiK2/vllm/vllmProfiles.ts';

/** `"I will run several searches. "` ×5, then N calls (the recorded vLLM timing input). */
export function searchCompletion(calls: number): string {
  const parts = ['I will run several searches. '.repeat(5), '<|tool_calls_section_begin|>'];
  for (let i = 0; i < calls; i++) {
    parts.push(
      `<|tool_call_begin|>functions.search:${i}<|tool_call_argument_begin|>{"query": "topic number ${i} with some words", "top_k": ${(i % 20) + 1}}<|tool_call_end|>`,
    );
  }
  parts.push('<|tool_calls_section_end|>');
  return parts.join('');
}

/** The input with `calls` calls, one pseudo-token per delta (1000 calls: 36,057 deltas, 141 KB, as recorded). */
function input(calls: number): { text: string; plan: ReturnType<typeof planDeltas> } {
  const text = searchCompletion(calls);
  return { text, plan: planDeltas(pseudoTokenize(text), { kind: 'tokens', perDelta: 1 }) };
}

function time(fn: () => void, minMs: number): number {
  let runs = 0;
  const start = performance.now();
  do {
    fn();
    runs++;
  } while (performance.now() - start < minMs);
  return (performance.now() - start) / runs;
}

function runReference(deltas: readonly VllmDelta[]): void {
  const p = new KimiK2Parser();
  for (const d of deltas) p.push(d.text);
  p.finish();
}

function runProfile(gen: VllmGeneration, plan: ReturnType<typeof planDeltas>): void {
  const p = vllmProfile(gen).createStreamParser({ decodeToken: plan.decodeToken });
  for (const d of plan.deltas) p.push(d.text, d.ids);
  p.finish();
}

/** Calls per input: 777, 7,257, 36,057 and about 100k deltas; the first three are the inputs vLLM was timed on. */
const CALLS = [20, 200, 1000, 2800];

/**
 * A cost model of vLLM's generation B: on every delta it parses the whole text so far again (here: a fresh B
 * profile over the text so far). Its answers are not used; it shows the growth vLLM's algorithm has.
 */
function runWholeTextB(plan: ReturnType<typeof planDeltas>): void {
  let text = '';
  for (const d of plan.deltas) {
    text += d.text;
    vllmProfile('B').createStreamParser().push(text, []);
  }
}

/** The cost model is quadratic: it runs only while its predicted time stays under this. */
const WHOLE_TEXT_BUDGET_MS = 20_000;

type Parser = 'reference' | VllmGeneration;

interface Row {
  calls: number;
  deltas: number;
  kb: number;
  ms: Record<Parser, number>;
  /** The whole-text cost model, when it ran. */
  whole: number | null;
}

export function benchVllmProfiles(log: (line: string) => void): void {
  // Warm the JIT so the smallest size is not mostly compilation.
  const warm = input(CALLS[0] as number);
  for (let i = 0; i < 20; i++) {
    runReference(warm.plan.deltas);
    for (const gen of VLLM_GENERATIONS) runProfile(gen, warm.plan);
  }
  const rows: Row[] = CALLS.map((calls) => {
    const { text, plan } = input(calls);
    return {
      calls,
      deltas: plan.deltas.length,
      kb: Buffer.byteLength(text) / 1000,
      ms: {
        reference: time(() => runReference(plan.deltas), 300),
        A: time(() => runProfile('A', plan), 300),
        B: time(() => runProfile('B', plan), 300),
        C: time(() => runProfile('C', plan), 300),
      },
      whole: null,
    };
  });
  // The cost model last: it makes a lot of garbage.
  let previous: Row | null = null;
  for (const row of rows) {
    if (previous?.whole && previous.whole * (row.deltas / previous.deltas) ** 2 > WHOLE_TEXT_BUDGET_MS) break;
    const { plan } = input(row.calls);
    row.whole = time(() => runWholeTextB(plan), row.deltas > 5000 ? 0 : 300);
    previous = row;
  }

  log('vLLM-behaviour profiles vs the reference parser (identical one-token delta sequences: 5 sentences + N search calls)');
  log(
    '   calls   deltas     size   reference          A          B          C    A/ref  B/ref  C/ref   B re-reading the whole text per delta (cost model)',
  );
  const cell = (v: number) => `${v.toFixed(v < 10 ? 2 : 0)} ms`.padStart(10);
  for (const r of rows) {
    const ratio = (v: number) => `${(v / r.ms.reference).toFixed(1)}×`.padStart(6);
    const whole =
      r.whole === null
        ? `skipped: predicted over ${WHOLE_TEXT_BUDGET_MS / 1000} s`
        : `${r.whole.toFixed(0)} ms (${(r.whole / r.ms.B).toFixed(0)}× the B profile)`;
    log(
      `  ${String(r.calls).padStart(6)} ${String(r.deltas).padStart(8)} ${r.kb.toFixed(0).padStart(6)} KB ${cell(r.ms.reference)} ${cell(r.ms.A)} ${cell(r.ms.B)} ${cell(r.ms.C)}  ${ratio(r.ms.A)} ${ratio(r.ms.B)} ${ratio(r.ms.C)}   ${whole}`,
    );
  }
  const first = rows[0] as Row;
  const last = rows[rows.length - 1] as Row;
  const growth = (k: Parser) => `${(last.ms[k] / last.deltas / (first.ms[k] / first.deltas)).toFixed(1)}×`;
  log(
    `  cost per delta at ${last.deltas} vs ${first.deltas} deltas (1.0 = linear): reference ${growth('reference')}, A ${growth('A')}, B ${growth('B')}, C ${growth('C')}`,
  );
  const modelled = rows.filter((r) => r.whole !== null);
  const m0 = modelled[0];
  const m1 = modelled.at(-1);
  if (m0 && m1 && m1 !== m0 && m0.whole !== null && m1.whole !== null) {
    log(
      `  B re-reading the whole text per delta (cost model), cost per delta at ${m1.deltas} vs ${m0.deltas} deltas: ${(m1.whole / m1.deltas / (m0.whole / m0.deltas)).toFixed(1)}× (quadratic)`,
    );
  }
  log(
    "  vLLM's own parsers are not timed here (a remembered time is no measurement): `node dist/bench.js --beside-vllm` runs gen C beside toolscope.",
  );
  log("  (The B profile reproduces B's answers, not its algorithm: it reads each part of the text once, so it stays linear.)");
}
