/**
 * What checking a code cache costs a run (src/io/cache/codeCache.ts, src/io/cache/cacheFiles.ts): a cache is handed to V8
 * only when its header names the sha256 of the bundle's bytes and the sha256 of its own bytes matches, so every run
 * hashes the bundle (2.3 MB for the CLI) and its cache. Budget: at most 3 ms a run (issue 29).
 *
 * Whole runs of the built CLI (`--version`, and `analyze FILE --no-guided`, whose cache holds more compiled code),
 * with the cache and without any; the check's own time is the CLI's start-up mark around it (reading the cache
 * file included, which any code cache costs), in time and in the process's CPU time (getrusage: ~1 ms resolution
 * on some kernels, but not stretched when a busy machine takes the core away mid-check). Beside them, in this process, the two hashes the check adds, and
 * node:zlib's crc32 over the same bytes (the fastest built-in checksum, for comparison: the seal uses sha256).
 */
import { spawnSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, 'cli.js');
const SAMPLE = join(__dirname, '..', 'samples', 'kimi-k2-raw-completions.jsonl');
const RUNS = 15;

const min = (xs: number[]) => Math.min(...xs.filter((x) => Number.isFinite(x)));
const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const f1 = (ms: number) => `${ms.toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function run(args: string[], env: Record<string, string>): { ms: number; marks: Record<string, number> } {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TOOLSCOPE_STARTUP_MARKS: '1', ...env },
    maxBuffer: 1 << 26,
  });
  const ms = performance.now() - started;
  const line = r.stderr.split('\n').find((l) => l.startsWith('toolscope-startup-marks '));
  return { ms, marks: line ? (JSON.parse(line.slice('toolscope-startup-marks '.length)) as Record<string, number>) : {} };
}

function nodeStartMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    times.push(performance.now() - t);
  }
  return min(times);
}

/** Min of `n` timings of `f`, in ms. */
function time(f: () => unknown, n = 20): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return min(times);
}

export function benchCodeCache(log: (line: string) => void): void {
  log(`Code cache check (budget ≤ 3 ms a run): min/median of ${RUNS} runs; load average ${load()}; node -e 0: ${f1(nodeStartMs())}`);
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-bench-code-cache-'));
  try {
    let largest = '';
    for (const [label, args] of [
      ['--version', ['--version']],
      ['analyze FILE --no-guided', ['analyze', SAMPLE, '--no-guided']],
    ] as const) {
      const cache = { XDG_CACHE_HOME: join(dir, label.replace(/\W+/g, '-')) };
      run([...args], cache);
      const cached = Array.from({ length: RUNS }, () => run([...args], cache));
      const plain = Array.from({ length: RUNS }, () => run([...args], { TOOLSCOPE_CODE_CACHE: '0' }));
      const check = cached.map((r) => r.marks['code-cache-checked.ms'] ?? NaN);
      const cpu = cached.map((r) => r.marks['code-cache-checked.cpuMs'] ?? NaN);
      const hits = cached.filter((r) => r.marks['code-cache-checked.hit'] === 1).length;
      const folder = join(cache.XDG_CACHE_HOME, 'toolscope');
      const file = readdirSync(folder).find((f) => f.startsWith('cli-main.js-'));
      const bytes = file ? readFileSync(join(folder, file)).length : NaN;
      if (file) largest = join(folder, file);
      log(
        `  ${label.padEnd(26)} check ${f1(min(check))} (median ${f1(median(check))}; CPU ${f1(min(cpu))}, median ${f1(median(cpu))}; ${hits}/${RUNS} hits, cache ${(bytes / 1e6).toFixed(2)} MB);` +
          ` to exit ${f1(min(cached.map((r) => r.ms)))} with the cache, ${f1(min(plain.map((r) => r.ms)))} without`,
      );
    }
    // The hashes the check adds (the rest of it, reading the cache file, any code cache costs), in this process.
    const parts: string[] = [];
    let added = 0;
    for (const [name, path] of [
      ['cli-main.js', join(__dirname, 'cli-main.js')],
      ['its cache', largest],
      ['guidedWorker-engine.js', join(__dirname, 'guidedWorker-engine.js')],
    ] as const) {
      if (!path) continue;
      const bytes = readFileSync(path);
      const ms = time(() => hash('sha256', bytes, 'hex'));
      if (name !== 'guidedWorker-engine.js') added += ms;
      parts.push(`${name} (${(bytes.length / 1e6).toFixed(2)} MB) sha256 ${f1(ms)}, crc32 ${f1(time(() => crc32(bytes)))}`);
    }
    log(`  hashing in this process: ${parts.join('; ')}`);
    log(`  the check adds ${f1(added)} of hashing to the CLI's thread (the engine's is on the grammar worker's)`);
    log(`  (check: hashing the bundle, reading the cache file and hashing it, before V8 gets it; load average ${load()} at the end)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
