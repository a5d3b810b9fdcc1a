/**
 * Where the machine's CPU went between two moments, per process and per thread, read from /proc (Linux): each
 * thread's CPU (utime + stime) and the time it was ready to run but waited for a core (schedstat). The workbench e2e
 * samples it over the 200 MB trace's analysis (TOOLSCOPE_E2E_CPU=1) to say which process spent what: the extension
 * host, code-server's server, Chromium's processes, and everything else on the machine (other runs sharing it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { schedstatWaitMs, statCpuMs, statParent, statStartMs } from '../../bench/procTask.ts';

/** One thread at one moment: its process, its CPU and run-queue wait (ms), and when it started (ms since boot). */
interface ThreadSample {
  pid: number;
  tid: number;
  cpuMs: number;
  waitMs: number;
  startMs: number;
}

interface Snapshot {
  at: number;
  threads: Map<number, ThreadSample>;
  /** Each process's command line (NUL-separated arguments joined by spaces). */
  commands: Map<number, string>;
  /** Each process's parent. */
  parents: Map<number, number>;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every thread on the machine now. */
export function snapshot(): Snapshot {
  const threads = new Map<number, ThreadSample>();
  const commands = new Map<number, string>();
  const parents = new Map<number, number>();
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    const pid = Number(p);
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    commands.set(pid, (read(`/proc/${p}/cmdline`) ?? '').split('\0').join(' ').trim());
    const stat = read(`/proc/${p}/stat`);
    if (stat) parents.set(pid, statParent(stat));
    for (const t of tids) {
      const stat = read(`/proc/${p}/task/${t}/stat`);
      if (!stat) continue;
      const sched = read(`/proc/${p}/task/${t}/schedstat`);
      threads.set(Number(t), {
        pid,
        tid: Number(t),
        cpuMs: statCpuMs(stat),
        waitMs: sched ? schedstatWaitMs(sched) : 0,
        startMs: statStartMs(stat),
      });
    }
  }
  return { at: Date.now(), threads, commands, parents };
}

/** Whether `pid` is `root` or was started by it (through any number of processes). */
function under(parents: Map<number, number>, pid: number, root: number): boolean {
  for (let p: number | undefined = pid, n = 0; p !== undefined && p > 1 && n < 64; p = parents.get(p), n++) if (p === root) return true;
  return false;
}

/** What a process is, from its command line; 'others' when this test did not start it. */
function kind(command: string, testPid: number, pid: number, parents: Map<number, number>): string {
  if (pid === testPid) return 'test runner';
  if (!under(parents, pid, testPid)) return 'others';
  if (command.includes('--type=extensionHost')) return 'extension host';
  if (/--type=(ptyHost|fileWatcher)/.test(command)) return "code-server's helpers";
  if (command.includes('code-server') || command.includes('server-main')) return 'code-server';
  const chromium = /chrom/i.test(command) || /headless_shell/.test(command);
  if (chromium) {
    const type = /--type=([\w-]+)/.exec(command)?.[1];
    if (!type) return 'chromium browser';
    if (type === 'renderer') return 'chromium renderer';
    if (type === 'gpu-process') return 'chromium gpu';
    return `chromium ${type}`;
  }
  return "the test's other processes";
}

/** Samples every `everyMs` until stopped, so a moment known only later (a mark's time) can be looked up. */
export class CpuSampler {
  private readonly samples: Snapshot[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 500) {
    this.samples.push(snapshot());
    this.timer = setInterval(() => this.samples.push(snapshot()), everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.samples.push(snapshot());
  }

  /** The last sample at or before `at` (the first when none is). */
  before(at: number): Snapshot {
    return this.samples.findLast((s) => s.at <= at) ?? (this.samples[0] as Snapshot);
  }

  /** The first sample at or after `at` (the last when none is). */
  after(at: number): Snapshot {
    return this.samples.find((s) => s.at >= at) ?? (this.samples.at(-1) as Snapshot);
  }

  /**
   * The CPU and core waits between two moments: per kind of process, and the extension host's threads each (its
   * main thread, the threads it started since `from`, the rest), as short text.
   */
  between(from: number, to: number, threadsToo = true): string {
    const a = this.before(from);
    const b = this.after(to);
    const testPid = process.pid;
    const perKind = new Map<string, { cpu: number; wait: number; n: Set<number> }>();
    const host: Array<{ tid: number; main: boolean; late: boolean; cpu: number; wait: number }> = [];
    for (const [tid, t] of b.threads) {
      const t0 = a.threads.get(tid);
      const cpu = t.cpuMs - (t0?.cpuMs ?? 0);
      const wait = t.waitMs - (t0?.waitMs ?? 0);
      if (cpu <= 0 && wait <= 0) continue;
      const k = kind(b.commands.get(t.pid) ?? '', testPid, t.pid, b.parents);
      const e = perKind.get(k) ?? { cpu: 0, wait: 0, n: new Set<number>() };
      e.cpu += cpu;
      e.wait += wait;
      e.n.add(t.pid);
      perKind.set(k, e);
      if (k === 'extension host') host.push({ tid, main: tid === t.pid, late: t0 === undefined, cpu, wait });
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(2)}`;
    const kinds = [...perKind]
      .sort((x, y) => y[1].cpu - x[1].cpu)
      .map(([k, e]) => `${k}${e.n.size > 1 ? ` (${e.n.size})` : ''} ${s(e.cpu)} (waited ${s(e.wait)})`);
    host.sort((x, y) => y.cpu - x.cpu);
    const threads = host.slice(0, 6).map((t) => `${t.main ? 'main' : t.late ? `new ${t.tid}` : `${t.tid}`} ${s(t.cpu)} (${s(t.wait)})`);
    const rest = host.slice(6).reduce((n, t) => n + t.cpu, 0);
    if (!threadsToo) return `${s(b.at - a.at)} s: ${kinds.join(', ')}`;
    return `CPU s over ${s(b.at - a.at)} s: ${kinds.join(', ')}; the extension host's threads: ${threads.join(', ')}${rest ? `, ${host.length - 6} more ${s(rest)}` : ''}`;
  }
}
