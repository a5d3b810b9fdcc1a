import assert from 'node:assert/strict';

/**
 * Best of `runs` runs of `run`, in ms of this process's CPU time. Wall time is biased under load: a short run fits in
 * one time slice while a long one waits between many (at a load of 34 on 2 cores, 16× the input took 155–269× the
 * wall time and 29× the CPU time).
 */
export function cpuBestOf(runs: number, run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * Linear, not quadratic, as a ratio of CPU times: `big` is 16× `small`, so linear work costs 16× and quadratic 256×.
 * The bound is 96× (6× linear, 2.7× under quadratic): quiet 2-core machines measure 14–28× (a big input's objects cost
 * the GC more than their share), so noise cannot pass for quadratic growth, and quadratic growth cannot pass for
 * linear. A fixed bound in ms failed under load; a ratio holds whatever the machine's speed and load.
 */
export function assertLinear16(name: string, small: () => void, big: () => void, runs = 5): void {
  small(); // warm the JIT before timing
  const ratio = cpuBestOf(runs, big) / Math.max(cpuBestOf(runs, small), 0.5);
  assert.ok(ratio < 96, `${name}: 16× the input took ${ratio.toFixed(1)}× the CPU time`);
}
