/**
 * A process's CPU time by thread, read from Linux's /proc while it runs: what `/usr/bin/time` sums up, split into the
 * main thread, V8's helper threads (Node starts them at boot, before any worker: its platform's delayed-task
 * scheduler, then four workers, where TurboFan's concurrent compiles, WASM tier-up, parallel scavenges and concurrent
 * marking run) and the worker threads (file threads and grammar workers, in the order they started; libuv's pool
 * threads, when a run reads files through it, count among them).
 * A thread that has ended keeps the last figure read, taken every SAMPLE_MS: a thread that lives less than that is
 * missed, which the figures of a corpus run (threads that live seconds) do not notice. Elsewhere than Linux: null.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { statCpuMs } from './procTask.ts';

const SAMPLE_MS = 50;
/**
 * Node 20's V8 platform threads, started right after the main thread: the delayed-task scheduler (idle: it only
 * posts timed tasks), then the workers (`--v8-pool-size`, 4 by default). Counting only four from the main thread on
 * took the scheduler for a helper and the fourth worker for the first worker thread (measured: a thread burning
 * 0.3–0.6 s of TurboFan and GC work printed as the first "other" thread, the prestarted grammar worker's place).
 */
const V8_HELPERS = 1 + 4;

export interface ThreadCpu {
  /** Seconds of CPU (user + system) of the main thread, V8's helper threads together, and each other thread. */
  main: number;
  helpers: number;
  workers: number[];
}

/** utime + stime of /proc/PID/task/TID/stat, in seconds (fields 14 and 15, counted after the command's name). */
function taskCpu(pid: number, tid: number): number | null {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')) / 1000;
  } catch {
    return null;
  }
}

/** The process and its descendants' ids (`/usr/bin/time` runs node as its child). */
function tree(pid: number): number[] {
  const out = [pid];
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean))
      out.push(...tree(Number(child)));
  } catch {
    // Gone, or no children file.
  }
  return out;
}

/**
 * Runs `command args` with its standard output to `outFile` and its standard error kept, sampling its threads' CPU;
 * resolves with the exit status, the error stream, the wall time and the CPU by thread of the node process in it.
 */
export function runWithThreadCpu(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  outFile: string,
): Promise<{ code: number | null; stderr: string; ms: number; threads: ThreadCpu | null }> {
  const out = openSync(outFile, 'w');
  const started = performance.now();
  const child = spawn(command, args, { env, stdio: ['ignore', out, 'pipe'] });
  const linux = process.platform === 'linux';
  /** The node process's threads, by thread id: the last CPU figure read. */
  const last = new Map<number, number>();
  let node: number | null = null;
  const sample = () => {
    if (!linux || child.pid === undefined) return;
    for (const pid of tree(child.pid)) {
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue;
      }
      // The node process is the one whose command is node (not /usr/bin/time).
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'node') continue;
      } catch {
        continue;
      }
      node ??= pid;
      if (pid !== node) continue;
      for (const tid of tids) {
        const cpu = taskCpu(pid, Number(tid));
        if (cpu !== null) last.set(Number(tid), cpu);
      }
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearInterval(timer);
      closeSync(out);
      const ms = performance.now() - started;
      if (node === null || last.size === 0) return resolve({ code, stderr, ms, threads: null });
      // Thread ids grow in the order the threads started: the main thread first, then V8's helpers.
      const tids = [...last.keys()].sort((a, b) => a - b);
      const main = last.get(node) ?? 0;
      const rest = tids.filter((t) => t !== node);
      const helpers = rest.slice(0, V8_HELPERS).reduce((s, t) => s + (last.get(t) ?? 0), 0);
      const workers = rest
        .slice(V8_HELPERS)
        .map((t) => last.get(t) ?? 0)
        .filter((s) => s >= 0.01);
      resolve({ code, stderr, ms, threads: { main, helpers, workers } });
    });
  });
}

/** `main 3.8 s, V8's helper threads 1.5 s, other threads 0.1 + 1.6 s` (in the order they started) */
export function threadCpuText(t: ThreadCpu | null): string {
  if (!t) return 'CPU by thread: n/a (Linux only)';
  const others = t.workers.length ? t.workers.map((s) => s.toFixed(1)).join(' + ') : 'none';
  return `CPU by thread: main ${t.main.toFixed(1)} s, V8's helper threads ${t.helpers.toFixed(1)} s, other threads in start order ${others} s`;
}
