/**
 * Toolscope as users run it: `toolscope analyze FILE` (default options, the what-if included) as a whole process,
 * beside vLLM's own Kimi K2 parser run the same way and alternated with it (vllmSideBySide.ts: the shared vLLM
 * harness, when a vLLM clone is there; without one no ratio is printed), and
 * `analyze DIR` over a generated corpus on one thread and on every core, and `analyze FILE` over the same records in
 * one big file (analysed in ranges of its records on every core), and `report FILE` over the first REPORT_MB of them
 * (built in ranges of its records on every core).
 *
 * Inputs: the completions vLLM was timed on (five sentences, then N search calls), recorded as a native record with
 * one token per delta (special tokens with their ids), 20 calls (777 tokens) and 1000 calls (36,057 tokens).
 * Each figure is the minimum of several runs (the machine is shared: the minimum is the least disturbed run);
 * the parts come from the CLI's own timeline (TOOLSCOPE_STARTUP_MARKS=1, ms since the process started).
 * TOOLSCOPE_BENCH_CORPUS_MB sets the corpus size (default 1000 MB; it is generated in a temp folder, as files and
 * as one file, and deleted); TOOLSCOPE_BENCH_CORPUS_RUNS=N runs each corpus figure N times and keeps the fastest (`--parquet`'s cost: N pairs
 * of runs, the median of their ratios).
 * `node dist/bench.js --corpus` prints only the corpus figures.
 */
import { spawnSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { searchCompletion } from './vllmProfilesBench.ts';
import { pseudoTokenize } from '../src/core/formats/kimiK2/vllm/vllmDeltas.ts';
import { benchBesideVllm } from './vllmSideBySide.ts';
import { runWithThreadCpu, threadCpuText, type ThreadCpu } from './threadCpu.ts';

const RUNS = 7;
/** The corpus's files (its records are also written as one file). */
const FILE_MB = 16;
/** `report FILE` over this much of the corpus: the report holds every record's view, several times the trace's size. */
const REPORT_MB = 32;
const CLI = join(__dirname, 'cli.js');

const SEARCH_TOOL = {
  type: 'function',
  function: {
    name: 'search',
    strict: true,
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' }, top_k: { type: 'integer', minimum: 1, maximum: 20 } },
      required: ['query'],
    },
  },
};

function searchRecord(calls: number): string {
  const text = searchCompletion(calls);
  const tokens = pseudoTokenize(text);
  return (
    JSON.stringify({
      toolscope: 1,
      id: `search-${calls}`,
      request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'Search.' }], tools: [SEARCH_TOOL] },
      completion: { text, tokens, finish_reason: 'tool_calls' },
    }) + '\n'
  );
}

type Marks = Record<string, number>;

/**
 * One CLI run under the launcher's start-up marks. With `outFile` its standard output goes to that file (a corpus
 * run writes more than a string can hold) and `stdout` is the file's SHA-256 instead of the text.
 */
function runCli(
  args: string[],
  env: Record<string, string> = {},
  outFile?: string,
): { ms: number; marks: Marks; code: number | null; stdout: string; peakMb: number | null; cpuS: number | null } {
  // Under GNU time when there is one: the process's peak RSS and CPU time (all its threads) come with the run itself.
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'toolscope-peak-kb %M %U %S'] : [];
  const out = outFile === undefined ? undefined : openSync(outFile, 'w');
  const started = performance.now();
  const r = spawnSync(time[0] ?? process.execPath, [...time.slice(1), ...(time.length ? [process.execPath] : []), CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TOOLSCOPE_STARTUP_MARKS: '1', ...env },
    maxBuffer: 1 << 30,
    stdio: ['ignore', out ?? 'pipe', 'pipe'],
  });
  const ms = performance.now() - started;
  if (out !== undefined) closeSync(out);
  return { ms, ...readRun(r.stderr), code: r.status, stdout: outFile === undefined ? r.stdout : fileHash(outFile) };
}

/** What a run's error stream says: the launcher's start-up marks, and GNU time's peak RSS and CPU time. */
function readRun(stderr: string): { marks: Marks; peakMb: number | null; cpuS: number | null } {
  const lines = stderr.split('\n');
  const line = lines.find((l) => l.startsWith('toolscope-startup-marks '));
  const peak = lines.find((l) => l.startsWith('toolscope-peak-kb '));
  return {
    marks: line ? (JSON.parse(line.slice('toolscope-startup-marks '.length)) as Marks) : {},
    peakMb: peak ? Number(peak.split(' ')[1]) / 1000 : null,
    cpuS: peak ? Number(peak.split(' ')[2]) + Number(peak.split(' ')[3]) : null,
  };
}

type CorpusRun = ReturnType<typeof runCli> & { threads: ThreadCpu | null };

/** `runCli` with the output to `outFile`, and the CPU of each of the process's threads read while it runs (threadCpu.ts). */
async function runCliThreads(args: string[], outFile: string): Promise<CorpusRun> {
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'toolscope-peak-kb %M %U %S'] : [];
  const r = await runWithThreadCpu(
    time[0] ?? process.execPath,
    [...time.slice(1), ...(time.length ? [process.execPath] : []), CLI, ...args],
    { ...process.env, TOOLSCOPE_STARTUP_MARKS: '1' },
    outFile,
  );
  return { ms: r.ms, ...readRun(r.stderr), code: r.code, stdout: fileHash(outFile), threads: r.threads };
}

/** SHA-256 of a file, read in pieces (a corpus run's output is larger than a string). */
function fileHash(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  const buffer = Buffer.alloc(1 << 22);
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

const min = (xs: number[]) => Math.min(...xs.filter((x) => Number.isFinite(x)));
const f0 = (ms: number) => `${ms.toFixed(0)} ms`;

export function nodeStartMs(env: NodeJS.ProcessEnv = process.env): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env });
    times.push(performance.now() - t);
  }
  return min(times);
}

/**
 * `node -e 0 N ms`, and what NODE_EXTRA_CA_CERTS costs it when that is set: Node 20 reads and parses those
 * certificates (and builds its root store) at every process start, before any script runs — measured 3× the CPU of
 * `node -e 0` with a system bundle of ~140 certificates, about 70–80 ms of CPU per process on a 2-core machine. It
 * is part of every Node process the bench times, so a figure without it says which machine's start-up it is.
 */
export function nodeStartNote(nodeMs: number, env: NodeJS.ProcessEnv = process.env): string {
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (!extra) return `node -e 0 ${f0(nodeMs)}${process.env.NODE_EXTRA_CA_CERTS ? ' (NODE_EXTRA_CA_CERTS unset)' : ''}`;
  const without = { ...env };
  delete without.NODE_EXTRA_CA_CERTS;
  return `node -e 0 ${f0(nodeMs)} (NODE_EXTRA_CA_CERTS is set, which Node 20 parses at every start: ${f0(nodeStartMs(without))} without it)`;
}

async function benchWholeProcess(log: (line: string) => void, dir: string, nodeMs: number): Promise<void> {
  log(`Whole process: toolscope analyze FILE (default options, what-if included), min of ${RUNS} runs`);
  log(
    `  ${nodeStartNote(nodeMs)} on this machine; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(
    '  calls  tokens   to first record  to exit   budget | node start  bundle load  read  parse  checks  WASM ready  compile  what-if answer',
  );
  for (const calls of [20, 1000]) {
    const file = join(dir, `search-${calls}.jsonl`);
    await writeFile(file, searchRecord(calls));
    // A cache folder of the bench's own: the first run writes the code caches and keeps the tag's grammar.
    const cache = { XDG_CACHE_HOME: join(dir, 'cache') };
    runCli(['analyze', file], cache);
    const runs = Array.from({ length: RUNS }, () => runCli(['analyze', file], cache));
    const m = (k: string) => min(runs.map((r) => r.marks[k] ?? NaN));
    const part = (a: string, b: string) => min(runs.map((r) => (r.marks[b] ?? NaN) - (r.marks[a] ?? NaN)));
    const exit = min(runs.map((r) => r.ms));
    const peak = min(runs.map((r) => r.peakMb ?? NaN));
    const budget = calls === 20 ? 120 : 160;
    const tokens = pseudoTokenize(searchCompletion(calls)).length;
    log(
      `  ${String(calls).padStart(5)} ${String(tokens).padStart(7)}   ${f0(m('first-record-shown')).padStart(15)} ${f0(exit).padStart(8)}  ${(exit <= budget ? `≤${budget} ok` : `>${budget} OVER`).padStart(8)} |` +
        ` ${f0(m('launcher')).padStart(10)} ${f0(part('launcher', 'bundle-loaded')).padStart(12)} ${f0(part('bundle-loaded', 'first-record-read')).padStart(5)} ${f0(part('first-record-read', 'parsed')).padStart(6)} ${f0(part('parsed', 'checked')).padStart(7)}` +
        ` ${f0(part('launcher', 'guided-ready')).padStart(11)} ${f0(m('guided-answer.compileMs')).padStart(8)} ${f0(part('checked', 'guided-answer')).padStart(9)} after checks`,
    );
    // A tool set not seen before: its grammar is derived from the tag (the code caches are there).
    const newTools = Array.from({ length: 3 }, () => {
      rmSync(join(cache.XDG_CACHE_HOME, 'toolscope', 'grammars'), { recursive: true, force: true });
      return runCli(['analyze', file], cache);
    });
    const cold = Array.from({ length: 3 }, () => runCli(['analyze', file], { TOOLSCOPE_CODE_CACHE: '0' }));
    const noGuided = Array.from({ length: 3 }, () => runCli(['analyze', file, '--no-guided'], cache));
    log(
      `  ${''.padStart(13)} tools not seen before: ${f0(min(newTools.map((r) => r.ms)))} to exit (compile ${f0(min(newTools.map((r) => r.marks['guided-answer.compileMs'] ?? NaN)))}); without any cache: ${f0(min(cold.map((r) => r.ms)))}; --no-guided: ${f0(min(noGuided.map((r) => r.ms)))}; peak RSS ${Number.isFinite(peak) ? `${peak.toFixed(0)} MB` : 'n/a'}`,
    );
  }
  log("  (WASM ready: from the launcher starting the worker to xgrammar's compiler being ready; the what-if runs on that");
  log('   thread while this one parses and checks, so "what-if answer" is how long the record then still waits for it.)');
}

/** A corpus trace: records like the samples' (a request with tools, a raw Kimi completion with 1–3 calls). */
export function corpusRecord(i: number): string {
  const calls = (i % 3) + 1;
  const parts = [
    `<think>Record ${i}: the user wants the weather and a search; I will call the tools.</think>`,
    'Let me look that up. ',
    '<|tool_calls_section_begin|>',
  ];
  for (let c = 0; c < calls; c++) {
    parts.push(
      c % 2
        ? `<|tool_call_begin|>functions.search:${c}<|tool_call_argument_begin|>{"query": "forecast city ${i}", "top_k": ${(i % 20) + 1}}<|tool_call_end|>`
        : `<|tool_call_begin|>functions.get_weather:${c}<|tool_call_argument_begin|>{"city": "City ${i}"${i % 7 === 0 ? ', "unit": "kelvin"' : ''}}<|tool_call_end|>`,
    );
  }
  parts.push('<|tool_calls_section_end|>');
  const tools = [
    SEARCH_TOOL,
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
          required: ['city'],
        },
      },
    },
  ];
  return JSON.stringify({
    toolscope: 1,
    id: `r${i}`,
    request: {
      model: 'kimi-k2',
      messages: [
        { role: 'system', content: 'You are a helpful assistant. '.repeat(20) },
        { role: 'user', content: `Weather in City ${i}, and search for its forecast.` },
      ],
      tools,
    },
    completion: { text: parts.join(''), finish_reason: 'tool_calls' },
  });
}

/**
 * The corpus: `totalMb` of corpus records in files of FILE_MB under `dir/corpus`, and the same records in one file,
 * `dir/corpus.jsonl`.
 */
async function writeCorpus(
  dir: string,
  totalMb: number,
): Promise<{ corpus: string; big: string; bytes: number; records: number; files: number }> {
  const corpus = join(dir, 'corpus');
  const big = join(dir, 'corpus.jsonl');
  await rm(corpus, { recursive: true, force: true });
  await mkdir(corpus);
  await writeFile(big, '');
  let bytes = 0;
  let records = 0;
  let files = 0;
  while (bytes < totalMb * 1e6) {
    const lines: string[] = [];
    let size = 0;
    while (size < FILE_MB * 1e6 && bytes + size < totalMb * 1e6) {
      const line = corpusRecord(records++);
      lines.push(line);
      size += line.length + 1;
    }
    const text = lines.join('\n') + '\n';
    await writeFile(join(corpus, `trace-${String(files++).padStart(4, '0')}.jsonl`), text);
    await appendFile(big, text);
    bytes += size;
  }
  return { corpus, big, bytes, records, files };
}

/**
 * `analyze TARGET --json` to a file on one thread and on every core, default options and --no-guided; with
 * TOOLSCOPE_BENCH_CORPUS_RUNS=N each N times, alternating, and the fastest of each kept (the machine may be shared).
 * Then issue 39's two ratios: the what-if run's throughput against the `--no-guided` run's, per thread count, and the
 * what-if run's speed-up on every core; each run's CPU is printed by thread (threadCpu.ts), as where it goes decides
 * what a second core can gain (one thread's run already keeps its grammar worker and V8's helper threads busy).
 */
async function benchThreads(log: (line: string) => void, dir: string, target: string, bytes: number, records: number): Promise<void> {
  const cores = availableParallelism();
  const runs = Math.max(1, Number(process.env.TOOLSCOPE_BENCH_CORPUS_RUNS ?? 1));
  const fastest = (rs: CorpusRun[]) => rs.reduce((a, b) => (b.ms < a.ms ? b : a));
  const kept: Record<'guided' | 'plain', { one: CorpusRun; all: CorpusRun }> = {} as never;
  for (const guided of [true, false]) {
    const extra = guided ? [] : ['--no-guided'];
    const ones: CorpusRun[] = [];
    const alls: CorpusRun[] = [];
    for (let i = 0; i < runs; i++) {
      ones.push(await runCliThreads(['analyze', target, '--json', '--jobs', '1', ...extra], join(dir, 'one.jsonl')));
      alls.push(await runCliThreads(['analyze', target, '--json', ...extra], join(dir, 'all.jsonl')));
    }
    const one = fastest(ones);
    const all = fastest(alls);
    kept[guided ? 'guided' : 'plain'] = { one, all };
    const same = [...ones, ...alls].every((r) => r.stdout === one.stdout && r.code === one.code);
    log(
      `  ${guided ? 'default (what-if on its own thread per analysing thread)' : '--no-guided'}${runs > 1 ? `, fastest of ${runs}` : ''}`,
    );
    logThreadRuns(log, { one, all, cores, bytes, records });
    log(
      `    speed-up on ${cores} cores: ${(one.ms / all.ms).toFixed(2)}× (goal ≥ ${guided ? '1.8× on 2 cores, issue 39' : '1.6× on 2 cores'}); output identical to one thread: ${same ? 'yes' : 'NO'}`,
    );
  }
  const pct = (a: CorpusRun, b: CorpusRun) => `${((b.ms / a.ms) * 100).toFixed(0)} %`;
  log(
    `  the what-if run's throughput against --no-guided's (goal ≥ 60 %, issue 39): ${pct(kept.guided.one, kept.plain.one)} on 1 thread, ${pct(kept.guided.all, kept.plain.all)} on ${cores} threads; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/** The median of some numbers (the mean of the middle two for an even count). */
function median(xs: readonly number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * `analyze TARGET --no-guided --json` without and with `--parquet DIR`, on one thread and on every core: what writing
 * the finding tables costs (goal: under 15 % of the `--no-guided` run). Measured in pairs (TOOLSCOPE_BENCH_CORPUS_RUNS
 * pairs per thread count): the two runs of a pair follow each other, which goes first alternates from pair to pair,
 * and the cost is the median of the pairs' ratios. On a shared machine the load moves between runs; a pair's two runs
 * see nearly the same load, and the minimum of each side taken apart (what this bench did before) compares runs made
 * minutes apart. Wall time is the goal; CPU time (all threads, GNU time) is printed beside it because it moves less
 * with the load. The `parquet-written` mark says where the tables' time went: the main thread's (handing rows to
 * the encoding thread, then waiting for its last row groups) and the encoding thread's.
 */
function benchParquet(log: (line: string) => void, dir: string, target: string): void {
  const cores = availableParallelism();
  const pairs = Math.max(1, Number(process.env.TOOLSCOPE_BENCH_CORPUS_RUNS ?? 1));
  const out = join(dir, 'parquet');
  const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
  const load = () => loadavg()[0] ?? NaN;
  log(
    `  --no-guided, without and with --parquet DIR: ${pairs} pair${pairs === 1 ? '' : 's'} of runs per thread count (which runs first alternates); the cost is the median of the pairs' ratios`,
  );
  for (const jobs of ['1', String(cores)]) {
    const args = ['analyze', target, '--json', '--no-guided', '--jobs', jobs];
    const plain = () => runCli(args, {}, join(dir, 'plain.jsonl'));
    const withTables = () => runCli([...args, '--parquet', out], {}, join(dir, 'tables.jsonl'));
    const runs: { a: ReturnType<typeof runCli>; b: ReturnType<typeof runCli>; load: number }[] = [];
    for (let i = 0; i < pairs; i++) {
      const before = load();
      let a, b;
      if (i % 2 === 0) {
        a = plain();
        b = withTables();
      } else {
        b = withTables();
        a = plain();
      }
      runs.push({ a, b, load: (before + load()) / 2 });
    }
    const wall = runs.map((r) => r.b.ms / r.a.ms);
    const cpu = runs.map((r) => (r.b.cpuS ?? NaN) / (r.a.cpuS ?? NaN));
    const mark = (k: string) => median(runs.map((r) => r.b.marks[`parquet-written.${k}`] ?? NaN)) / 1000;
    const sizes = ['records.parquet', 'findings.parquet'].map((f) => (existsSync(join(out, f)) ? statSync(join(out, f)).size / 1e6 : NaN));
    const same = runs.every((r) => r.a.stdout === r.b.stdout && r.a.stdout === runs[0]?.a.stdout);
    const list = (xs: number[]) => (xs.length > 1 ? ` (pairs: ${xs.map(pct).join(', ')})` : '');
    const loads = runs.map((r) => r.load);
    log(
      `    ${`${jobs} thread${jobs === '1' ? '' : 's'}`.padEnd(10)} wall ${pct(median(wall))} (goal < 15 %)${list(wall)}; ${(median(runs.map((r) => r.a.ms)) / 1000).toFixed(1)} s without, ${(median(runs.map((r) => r.b.ms)) / 1000).toFixed(1)} s with (medians)`,
    );
    log(
      `               CPU ${pct(median(cpu))}${list(cpu)}; ${median(runs.map((r) => r.a.cpuS ?? NaN)).toFixed(1)} s without, ${median(runs.map((r) => r.b.cpuS ?? NaN)).toFixed(1)} s with`,
    );
    log(
      `               the tables on the main thread ${mark('mainMs').toFixed(2)} s, of which waiting at the end ${mark('waitMs').toFixed(2)} s; encoding on their own thread ${mark('encodeMs').toFixed(2)} s (wall, medians), that thread's CPU ${mark('encodeCpuMs').toFixed(2)} s; records.parquet ${sizes[0]?.toFixed(1)} MB, findings.parquet ${sizes[1]?.toFixed(1)} MB; same JSON Lines: ${same ? 'yes' : 'NO'}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the pairs`,
    );
  }
  rmSync(out, { recursive: true, force: true });
}

/** A run on one thread and on every core: time, MB/s, records/s, peak RSS and CPU, a line each. */
function logThreadRuns(
  log: (line: string) => void,
  runs: {
    one: ReturnType<typeof runCli> & { threads?: ThreadCpu | null };
    all: ReturnType<typeof runCli> & { threads?: ThreadCpu | null };
    cores: number;
    bytes: number;
    records: number;
  },
): void {
  const { bytes, records } = runs;
  for (const [label, r] of [
    ['1 thread', runs.one],
    [`${runs.cores} threads`, runs.all],
  ] as const) {
    const perS = (n: number) => n / (r.ms / 1000);
    log(
      `    ${label.padEnd(10)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${perS(bytes / 1e6)
        .toFixed(1)
        .padStart(
          6,
        )} MB/s  ${Math.round(perS(records)).toLocaleString('en-US').padStart(8)} records/s  peak RSS ${r.peakMb === null ? 'n/a' : `${r.peakMb.toFixed(0)} MB`}  CPU ${r.cpuS === null ? 'n/a' : `${r.cpuS.toFixed(1)} s`}`,
    );
    if (r.threads !== undefined) log(`               ${threadCpuText(r.threads)}`);
  }
}

/**
 * `report FILE -o report.html` on one thread (the default for one file) and on every core (`--jobs N`: ranges of its
 * records), the what-if included both ways; the reports compared with their nonces (random per report) taken out.
 */
async function benchReport(log: (line: string) => void, dir: string, file: string, bytes: number, records: number): Promise<void> {
  const cores = availableParallelism();
  const runs = Math.max(1, Number(process.env.TOOLSCOPE_BENCH_CORPUS_RUNS ?? 1));
  const out = join(dir, 'report.html');
  const report = async (jobs: string[]) => {
    const r = runCli(['report', file, '-o', out, ...jobs]);
    const html = await readFile(out, 'utf8');
    const nonce = /nonce="([^"]+)"/.exec(html)?.[1] ?? '';
    return { ...r, html: createHash('sha256').update(html.replaceAll(nonce, 'NONCE')).digest('hex'), mb: html.length / 1e6 };
  };
  const ones = [];
  const alls = [];
  for (let i = 0; i < runs; i++) {
    ones.push(await report(['--jobs', '1']));
    alls.push(await report(['--jobs', String(cores)]));
  }
  const fastest = <T extends { ms: number }>(rs: T[]) => rs.reduce((a, b) => (b.ms < a.ms ? b : a));
  const one = fastest(ones);
  const all = fastest(alls);
  const same = [...ones, ...alls].every((r) => r.html === one.html && r.code === one.code);
  log(`  default (what-if on), a ${one.mb.toFixed(0)} MB report${runs > 1 ? `, fastest of ${runs}` : ''}`);
  logThreadRuns(log, { one, all, cores, bytes, records });
  log(`    speed-up on ${cores} cores: ${(one.ms / all.ms).toFixed(2)}×; report identical to one thread's: ${same ? 'yes' : 'NO'}`);
}

/**
 * The first corpus files, up to REPORT_MB, as one file `dir/report.jsonl` (the records of the one big file's start).
 */
async function writeReportTrace(dir: string, corpus: string): Promise<{ file: string; bytes: number; records: number }> {
  const file = join(dir, 'report.jsonl');
  await writeFile(file, '');
  let bytes = 0;
  let records = 0;
  for (const name of (await readdir(corpus)).sort()) {
    if (bytes >= REPORT_MB * 1e6) break;
    const text = await readFile(join(corpus, name), 'utf8');
    await appendFile(file, text);
    bytes += Buffer.byteLength(text);
    records += text.split('\n').length - 1;
  }
  return { file, bytes, records };
}

/**
 * `analyze DIR` over the corpus's files, then `analyze FILE` over the same records in one file (cut into ranges), then
 * `report FILE` over the start of them.
 */
async function benchCorpus(log: (line: string) => void, dir: string): Promise<void> {
  const totalMb = Number(process.env.TOOLSCOPE_BENCH_CORPUS_MB ?? 1000);
  const { corpus, big, bytes, records, files } = await writeCorpus(dir, totalMb);
  const load = () =>
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`;
  try {
    log(
      `analyze DIR: ${(bytes / 1e6).toFixed(0)} MB in ${files} files, ${records.toLocaleString('en-US')} records (TOOLSCOPE_BENCH_CORPUS_MB=${totalMb}), --json to a file; ${load()}`,
    );
    await benchThreads(log, dir, corpus, bytes, records);
    benchParquet(log, dir, corpus);
    const forReport = await writeReportTrace(dir, corpus);
    await rm(corpus, { recursive: true, force: true });
    log(`analyze FILE: the same records in one ${(bytes / 1e6).toFixed(0)} MB file (cut into ranges of its records); ${load()}`);
    await benchThreads(log, dir, big, bytes, records);
    log(
      `report FILE: the first ${(forReport.bytes / 1e6).toFixed(0)} MB of those records (${forReport.records.toLocaleString('en-US')}) in one file (--jobs ${availableParallelism()}: cut into ranges of its records); ${load()}`,
    );
    await benchReport(log, dir, forReport.file, forReport.bytes, forReport.records);
    log(`  (${load()} at the end; the machine may be shared: compare runs made close together)`);
  } finally {
    await rm(corpus, { recursive: true, force: true });
    await rm(big, { force: true });
  }
}

export async function benchProcess(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-bench-process-'));
  try {
    const nodeMs = nodeStartMs();
    await benchWholeProcess(log, dir, nodeMs);
    log('');
    benchBesideVllm(log, CLI, join(dir, 'cache'), (env) =>
      env === process.env ? nodeStartNote(nodeMs) : nodeStartNote(nodeStartMs(env), env),
    );
    log('');
    await benchCorpus(log, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `bench.js --parquet`: only what `--parquet` costs over the corpus's files (TOOLSCOPE_BENCH_CORPUS_MB). */
export async function benchParquetOnly(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-bench-parquet-'));
  try {
    const totalMb = Number(process.env.TOOLSCOPE_BENCH_CORPUS_MB ?? 1000);
    const { corpus, big, bytes, records, files } = await writeCorpus(dir, totalMb);
    await rm(big, { force: true });
    log(
      `analyze DIR --parquet: ${(bytes / 1e6).toFixed(0)} MB in ${files} files, ${records.toLocaleString('en-US')} records (TOOLSCOPE_BENCH_CORPUS_MB=${totalMb}); node -e 0: ${f0(nodeStartMs())}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    benchParquet(log, dir, corpus);
    log(
      `  (load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `bench.js --beside-vllm`: only the side-by-side runs with vLLM's own parser. */
export async function benchBesideVllmOnly(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-bench-process-'));
  try {
    benchBesideVllm(log, CLI, join(dir, 'cache'), (env) => nodeStartNote(nodeStartMs(env), env));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `bench.js --corpus`: only the corpus figures (analyze DIR and FILE, 1 thread against every core). */
export async function benchCorpusOnly(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-bench-process-'));
  try {
    await benchCorpus(log, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
