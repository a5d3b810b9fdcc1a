/**
 * A thread's figures from Linux's /proc, read where the benches and the workbench e2e account CPU by thread
 * (threadCpu.ts, editorTraceBench.ts, test/workbench/processCpu.ts): one reading of the kernel's formats.
 */

/** Clock ticks a second in /proc's stat files (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** A stat file's fields after the command's name (which may hold spaces and parentheses): field 3 on is index 0 on. */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A task's CPU (utime + stime) from its stat file's text, in ms. */
export function statCpuMs(stat: string): number {
  const f = statFields(stat);
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
}

/** When a task started, from its stat file's text, in ms since boot. */
export function statStartMs(stat: string): number {
  return (Number(statFields(stat)[19]) * 1000) / TICKS_PER_S;
}

/** A task's parent process, from its stat file's text. */
export function statParent(stat: string): number {
  return Number(statFields(stat)[1]);
}

/** The time a task was ready to run but waited for a core, from its schedstat file's text, in ms. */
export function schedstatWaitMs(schedstat: string): number {
  return Number(schedstat.split(' ')[1]) / 1e6;
}
