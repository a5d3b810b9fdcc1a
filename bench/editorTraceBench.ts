/**
 * `npm run bench -- --editor-trace`: the trace editor's pipeline on the workbench's 200 MB trace (bigTrace.ts),
 * outside code-server. Each run is a fresh process (`--editor-trace-child`) that does what the editor's host does
 * (traceEditorProvider.ts): the editor's threads (editorThreads.ts), `TraceSession.open` with the list workers, the
 * first listed record shown and the first rows in view, the list pulled batch by batch as `analyseInBackground`
 * pulls it, then the what-if findings until none is under way. It prints the time to the first rows, to the shown
 * record's what-if, to every row listed and to every what-if filled; CPU per thread (from /proc: the host's, each
 * Worker's it started, V8's helpers, and the threads its workers started); and the messages and bytes (V8's serialisation of each message) crossing threads.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { serialize } from 'node:v8';
import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';
import { writeBigTrace } from './bigTrace.ts';
import { nodeStartMs, nodeStartNote } from './processBench.ts';
import { schedstatWaitMs, statCpuMs } from './procTask.ts';

export const EDITOR_TRACE_CHILD_FLAG = '--editor-trace-child';
/** `bench.js --editor-list-child FILE [MB]`: the list worker's work over the file on one thread (see editorListChild). */
export const EDITOR_LIST_CHILD_FLAG = '--editor-list-child';

const RUNS = Number(process.env.TOOLSCOPE_BENCH_EDITOR_RUNS ?? 2);
const TRACE_MB = Number(process.env.TOOLSCOPE_BENCH_EDITOR_MB ?? 200);
/** `1`: the trace's records all differ (bigTrace.ts `varied`): no what-if's input repeats every 29 records. */
const VARIED = process.env.TOOLSCOPE_BENCH_EDITOR_VARIED === '1';
const ROOT = join(__dirname, '..');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** What one run prints as its last line (JSON). */
export interface EditorTraceRun {
  records: number;
  firstRowsMs: number;
  shownWhatIfMs: number;
  listedMs: number;
  filledMs: number;
  pendingLeft: number;
  cpuMs: number;
  /** Per thread: its CPU, and the time it was ready to run but waited for a core (/proc schedstat). */
  threads: { name: string; cpuMs: number; waitMs?: number }[];
  messages: { toWorkers: number; toWorkersBytes: number; fromWorkers: number; fromWorkersBytes: number };
}

export async function benchEditorTrace(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-bench-editor-'));
  try {
    const file = join(dir, 'generated-200mb.jsonl');
    const { bytes, records } = await writeBigTrace(ROOT, file, TRACE_MB * 1024 * 1024, VARIED);
    const nodeMs = nodeStartMs();
    log(
      `Trace editor pipeline (goal: every what-if filled ≤ 10 s after open): ${basename(file)}, ${(bytes / 1024 / 1024).toFixed(0)} MB, ${records} records${VARIED ? ' (varied: no two what-ifs alike but 9 kinds of record)' : ''}; ${availableParallelism()} cores; ${nodeStartNote(nodeMs)}`,
    );
    for (let i = 0; i < RUNS; i++) {
      const before = load();
      const child = spawnSync(process.execPath, [__filename, EDITOR_TRACE_CHILD_FLAG, file], { encoding: 'utf8', maxBuffer: 1 << 24 });
      const last = child.stdout.trim().split('\n').at(-1) ?? '';
      if (child.status !== 0 || !last.startsWith('{')) {
        log(`  run ${i + 1}: failed (${child.status}): ${child.stderr.trim().split('\n').slice(-3).join(' / ')}`);
        continue;
      }
      const r = JSON.parse(last) as EditorTraceRun;
      log(`  run ${i + 1} (load average ${before} → ${load()}):`);
      for (const line of describe(r)) log(`    ${line}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function describe(r: EditorTraceRun): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  return [
    `first rows ${s(r.firstRowsMs)}, shown record's what-if ${s(r.shownWhatIfMs)}, every row listed ${s(r.listedMs)}, every what-if filled ${s(r.filledMs)} after open${r.pendingLeft ? ` (${r.pendingLeft} rows still pending!)` : ''}`,
    `CPU ${s(r.cpuMs)} in all: ${r.threads.map((t) => `${t.name} ${s(t.cpuMs)}${t.waitMs === undefined ? '' : ` (waited for a core ${s(t.waitMs)})`}`).join(', ')}`,
    `messages host → workers ${r.messages.toWorkers} (${mb(r.messages.toWorkersBytes)}), workers → host ${r.messages.fromWorkers} (${mb(r.messages.fromWorkersBytes)})`,
  ];
}

/** A figure per thread of this process, read from its `/proc/self/task/<tid>/` files (Linux; empty elsewhere). */
function perThread(read: (tid: string) => number): Map<number, number> {
  const figures = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return figures;
  }
  for (const tid of tids) {
    try {
      figures.set(Number(tid), read(tid));
    } catch {
      // The thread ended, or the kernel keeps no such file.
    }
  }
  return figures;
}

/** Per-thread CPU: utime + stime in clock ticks (100 Hz). */
function threadTicks(): Map<number, number> {
  return perThread((tid) => statCpuMs(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')) / 10);
}

/** Per-thread time waiting on a run queue, ready to run (ms; schedstat, when the kernel keeps it). */
function threadWaits(): Map<number, number> {
  return perThread((tid) => schedstatWaitMs(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8')));
}

/** One run, in this fresh process: the editor host's steps over `file`, the figures as one JSON line. */
export async function editorTraceChild(file: string): Promise<void> {
  // Threads by the Worker that started them (a Worker's thread is created in its constructor), and what crosses.
  const names = new Map<number, string>();
  const lastTicks = new Map<number, number>();
  const lastWaits = new Map<number, number>();
  const messages = { toWorkers: 0, toWorkersBytes: 0, fromWorkers: 0, fromWorkersBytes: 0 };
  let meteringMs = 0;
  const size = (m: unknown) => {
    const t = performance.now();
    let n = 0;
    try {
      n = serialize(m).length;
    } catch {
      // Not serialisable by V8 here (a transferable): not counted.
    }
    meteringMs += performance.now() - t;
    return n;
  };
  // The module object itself (every bundle's `require` of it), not a namespace copy of it.
  const workerThreads = createRequire(__filename)('node:worker_threads') as typeof WorkerThreads;
  const Original = workerThreads.Worker;
  let started = 0;
  class CountedWorker extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      const before = new Set(threadTicks().keys());
      super(...args);
      const data = (args[1]?.workerData ?? null) as { kind?: string } | null;
      const name = `${data?.kind === 'toolscope-list-worker' ? 'list worker' : String(args[0]).includes('guided') || String(args[0]).includes('engineWorker') ? 'grammar worker' : 'worker'} ${++started}`;
      for (const tid of threadTicks().keys()) if (!before.has(tid)) names.set(tid, name);
      this.on('message', (m: unknown) => {
        messages.fromWorkers++;
        messages.fromWorkersBytes += size(m);
      });
    }
    override postMessage(value: unknown, transfer?: readonly WorkerThreads.TransferListItem[]): void {
      messages.toWorkers++;
      messages.toWorkersBytes += size(value);
      super.postMessage(value, transfer);
    }
  }
  (workerThreads as { Worker: typeof Original }).Worker = CountedWorker;
  const sample = () => {
    for (const [tid, t] of threadTicks()) lastTicks.set(tid, t);
    for (const [tid, w] of threadWaits()) lastWaits.set(tid, w);
  };
  const sampler = setInterval(sample, 200);

  const { configureEditorThreads } = await import('../src/host/view/editorThreads.ts');
  const { listWorkers } = await import('../src/host/view/listWorkers.ts');
  const { TraceSession } = await import('../src/host/view/traceSession.ts');
  const { guidedEngine } = await import('../src/io/guided/guidedEnginePool.ts');

  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const ticks0 = threadTicks();
  const waits0 = threadWaits();
  configureEditorThreads();
  const session = await TraceSession.open(file, basename(file), {}, {}, listWorkers());
  const pending = new Set<string>();
  let rows = 0;
  let firstRowsMs = 0;
  let shownWhatIfMs = 0;
  let shown: Promise<void> | null = null;
  const filled = (keys: Iterable<string>) => {
    for (const k of keys) pending.delete(k);
  };
  for (;;) {
    const batch = await session.nextBatch(40);
    if (!batch) break;
    for (const s of batch.summaries) if (s.guidedPending) pending.add(s.key);
    filled(batch.guided.map((f) => f.key));
    rows += batch.summaries.length;
    if (rows && !firstRowsMs) {
      firstRowsMs = performance.now() - t0;
      // The page shows the first row and reports the rows in view (traceEditorProvider.ts: getRecord, inView).
      const first = batch.summaries[0]?.key as string;
      session.setInView(batch.summaries.slice(0, 30).map((s) => s.key));
      shown = session.record(first).then(async ({ guided }) => {
        const findings = guided ? await guided : null;
        if (findings) filled([findings.key]);
        shownWhatIfMs = performance.now() - t0;
      });
    }
    await new Promise((r) => setTimeout(r, 0));
  }
  const listedMs = performance.now() - t0;
  for (let findings; (findings = await session.nextGuidedFindings());) filled(findings.map((f) => f.key));
  await shown;
  const filledMs = performance.now() - t0;
  sample();
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpu0);
  const byName = new Map<string, number>();
  const waitByName = new Map<string, number>();
  const main = process.pid;
  for (const [tid, t] of lastTicks) {
    // Threads there before the open are V8's helpers (GC, compiling); those started since by no Worker of this thread
    // are the workers' own (a list worker's grammar worker) and libuv's pool (file reads).
    const name =
      tid === main ? 'host thread' : (names.get(tid) ?? (ticks0.has(tid) ? 'V8 helpers' : "workers' grammar workers + libuv pool"));
    byName.set(name, (byName.get(name) ?? 0) + (t - (ticks0.get(tid) ?? 0)) * 10);
    const wait = lastWaits.get(tid);
    if (wait !== undefined) waitByName.set(name, (waitByName.get(name) ?? 0) + wait - (waits0.get(tid) ?? 0));
  }
  const hostMs = byName.get('host thread');
  if (hostMs !== undefined) byName.set('host thread', hostMs - meteringMs);
  const run: EditorTraceRun = {
    records: rows,
    firstRowsMs,
    shownWhatIfMs,
    listedMs,
    filledMs,
    pendingLeft: pending.size,
    cpuMs: (cpu.user + cpu.system) / 1000 - meteringMs,
    threads: [...byName].map(([name, cpuMs]) => ({
      name: name === 'host thread' ? 'host thread (metering taken off)' : name,
      cpuMs,
      ...(waitByName.has(name) ? { waitMs: waitByName.get(name) } : {}),
    })),
    messages,
  };
  await session.close();
  await listWorkers().close();
  await guidedEngine().close();
  process.stdout.write(JSON.stringify(run) + '\n');
  process.exit(0);
}

/**
 * The list worker's work alone, on this thread (`--editor-list-child FILE [MB]`): the file's first MB (all of it
 * without) cut into the ranges the editor sends (4 MB), each served by `runListWorker` over a MessageChannel as a list
 * worker serves its host's (the rows posted and cloned as they would cross threads), one range listed at a time. For
 * a profile (`--cpu-prof`) or instruction counts (callgrind) of the list without the editor's threads around it.
 * Prints this thread's CPU, the rows, and a digest of every row as the host ends up with it (its what-if applied):
 * two builds that list the same rows print the same digest.
 */
export async function editorListChild(file: string, mb?: number): Promise<void> {
  const { MessageChannel } = createRequire(__filename)('node:worker_threads') as typeof WorkerThreads;
  const { createHash } = await import('node:crypto');
  const { statSync } = await import('node:fs');
  const { runListWorker } = await import('../src/host/view/listWorker.ts');
  const { indexedRanges } = await import('../src/io/trace/traceRanges.ts');
  const { guidedEngine } = await import('../src/io/guided/guidedEnginePool.ts');
  type Answer = import('../src/host/view/listWorkerProtocol.ts').ListWorkerAnswer;
  type Row = import('../src/shared/protocol.ts').RecordSummary;
  const threadCpuMs = () => statCpuMs(readFileSync('/proc/thread-self/stat', 'utf8'));
  const size = mb ? Math.min(statSync(file).size, mb * 1024 * 1024) : statSync(file).size;
  const { port1, port2 } = new MessageChannel();
  runListWorker(port2);
  const rows = new Map<string, Row>();
  let lineErrors = 0;
  const listed = new Map<number, () => void>();
  const done = new Map<number, Promise<void>>();
  const doneBy = new Map<number, () => void>();
  port1.on('message', (a: Answer) => {
    if (a.type === 'batch') {
      for (const s of a.summaries) rows.set(s.key, s);
      for (const f of a.guided) rows.set(f.key, f.summary);
      lineErrors += a.lineErrors.length;
    } else if (a.type === 'guided') for (const f of a.findings) rows.set(f.key, f.summary);
    else if (a.type === 'listed') listed.get(a.id)?.();
    else doneBy.get(a.id)?.();
  });
  const t0 = performance.now();
  const cpu0 = threadCpuMs();
  let id = 0;
  for await (const range of indexedRanges(file, size, 4 * 1024 * 1024)) {
    const rangeId = ++id;
    done.set(rangeId, new Promise<void>((r) => doneBy.set(rangeId, r)));
    const isListed = new Promise<void>((r) => listed.set(rangeId, r));
    port1.postMessage({ type: 'range', id: rangeId, range, fileName: basename(file), options: {}, inView: [] });
    await isListed;
  }
  await Promise.all(done.values());
  const cpuMs = threadCpuMs() - cpu0;
  const wallMs = performance.now() - t0;
  const digest = createHash('sha256');
  let pending = 0;
  for (const key of [...rows.keys()].sort()) {
    const row = rows.get(key) as Row;
    if (row.guidedPending) pending++;
    digest.update(JSON.stringify(row));
  }
  port1.close();
  await guidedEngine().close();
  process.stdout.write(
    JSON.stringify({ rows: rows.size, lineErrors, pending, cpuMs, wallMs, rowsDigest: digest.digest('hex').slice(0, 16) }) + '\n',
  );
  process.exit(0);
}
