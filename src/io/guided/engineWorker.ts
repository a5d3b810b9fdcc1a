/**
 * The grammar-engine worker: web-xgrammar runs here, not on the thread that reads traces. Its WASM module can
 * abort (a `[FATAL]` check, a failed memory growth) and is not safe to use after that, so an abort answers the
 * job that caused it and ends this worker; guidedEngine.ts starts a fresh one for the next job. A hang or an
 * out-of-memory ends it from outside (time budget, resourceLimits).
 *
 * xgrammar prints `[WARNING]`/`[FATAL]` lines with console.log/console.error, bound when its module is created
 * inside its module factory, which runs on the first job: they are captured here and sent back with the answer,
 * never written to stdout.
 */
import { parentPort } from 'node:worker_threads';
import { format } from 'node:util';
import { UNREAD_JOB, type EngineAnswer, type EngineRequest } from '../../core/guided/engineProtocol.ts';
import { mayBeSlow, runJob } from '../../core/guided/engineJobs.ts';
import { keepDerivedGrammarsIn, warmUpCompiler } from '../../core/guided/xgrammar.ts';
import { bundleBuild, derivedGrammarFiles } from '../cache/derivedGrammarFiles.ts';

let log: string[] = [];
const capture = (...args: unknown[]) => {
  log.push(format(...args));
};
console.log = capture;
console.info = capture;
console.warn = capture;
console.error = capture;
// Anything written straight to the streams too: a worker's stdout is the process's, which `--json` keeps for JSON.
// (Piping the streams to the parent instead, `stdout: true`, would keep the parent's event loop alive.)
for (const stream of [process.stdout, process.stderr]) {
  stream.write = ((chunk: unknown) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) log.push(line);
    return true;
  }) as typeof stream.write;
}

// A built worker (the CLI's engine bundle, the extension's guidedWorker.js) keeps the grammars it derives from tags
// between runs, by its build; from source (tests) nothing is kept, as the build of the sources is not known.
if (__filename.endsWith('.js')) {
  try {
    keepDerivedGrammarsIn(derivedGrammarFiles(bundleBuild(__filename)));
  } catch {
    // No store: every run derives its grammars.
  }
}

// The WASM module and the compiler start now, not when the first job arrives: the thread that started this worker
// is still loading or reading its traces. The warm-up job waits for this same start (warmUpCompiler is memoised).
warmUpCompiler().catch(() => undefined);

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'RuntimeError' || /Aborted\(/.test(err.message));
}

/**
 * Answers go back in one message per batch of jobs, as the jobs came (a message per answer cost the reading thread a
 * 'message' event each: ~4 % of its time on the bench corpus). An answer is held only while the next job is already
 * here and quick — a what-if whose grammar is compiled, on a short text —, and for at most HOLD_MS, so the engine's
 * time budget, which runs from the answer before, never waits on a job that is not its own.
 */
const HOLD_MS = 2;
/**
 * The first answers go alone, at once: the warm-up's and the first job's. A short run's worker writes its code cache
 * as it sends the second (cli/guidedWorkerLoader.ts), while the run's V8 flags are still set; held to the end of the
 * run, the cache was written after the launcher put the default flags back, and the next short run threw it away.
 */
const FIRST_ALONE = 2;
let answers = 0;
let held: EngineAnswer[] = [];
let heldSince = 0;

function answer(a: EngineAnswer): void {
  if (held.length === 0) heldSince = performance.now();
  held.push(a);
  answers++;
}

function flush(): void {
  if (held.length === 0) return;
  const batch = held;
  held = [];
  parentPort?.postMessage(batch);
}

// One job at a time, in the order sent: the engine may send the first job right behind the warm-up. A message holds
// one job or several (the what-ifs of a turn of the sender's event loop, guidedEngine.ts).
let jobs: Promise<void> = Promise.resolve();
/** Jobs received and not yet started. */
let waiting = 0;
parentPort?.on('message', (requests: EngineRequest[]) => {
  waiting += requests.length;
  for (const request of requests) jobs = jobs.then(() => runAndAnswer(request));
});
// A job that could not be read here (too deep for this thread's stack to copy) is answered as a failure in its turn,
// not left for the time budget.
parentPort?.on('messageerror', (err: Error) => {
  waiting++;
  jobs = jobs.then(() => {
    waiting--;
    const message = `the grammar engine could not read the job: ${err.message}`;
    answer({ id: UNREAD_JOB, ok: false, failure: { name: 'GuidedUnavailableError', message, aborted: false }, log: [] });
    if (waiting === 0 || answers <= FIRST_ALONE) flush();
  });
});

async function runAndAnswer({ id, job }: EngineRequest): Promise<void> {
  waiting--;
  if (held.length > 0 && (mayBeSlow(job) || performance.now() - heldSince > HOLD_MS)) flush();
  log = [];
  let reply: EngineAnswer;
  let aborted = false;
  try {
    reply = { id, ok: true, value: await runJob(job), log };
  } catch (err) {
    aborted = isAbort(err);
    const e = err instanceof Error ? err : new Error(String(err));
    reply = { id, ok: false, failure: { name: e.name, message: e.message, aborted }, log };
  }
  answer(reply);
  // Aborted: this worker ends, its answers go now.
  if (aborted || waiting === 0 || answers <= FIRST_ALONE) flush();
  if (aborted) process.exit(0);
}
