/**
 * Named moments of a process's start-up, for `npm run bench` (the parts of a whole `toolscope analyze` run): Node's
 * own performance timeline, which every bundle of one thread shares, so the launcher and the CLI bundle mark the
 * same clock (ms since the process started). With TOOLSCOPE_STARTUP_MARKS=1 the marks are printed to stderr as one
 * JSON line when the process exits; without it they cost a `performance.mark` each and print nothing.
 */
const PREFIX = 'toolscope:';
// Shared by the copies of this module in the launcher's and the CLI's bundles: one set of names, one printout.
// The variable is read once per thread: `process.env` is slow to read (a worker thread's most of all), and the
// analysis marks every record.
const state = ((globalThis as unknown as Record<symbol, { enabled: boolean; printing: boolean; marked: Set<string> } | undefined>)[
  Symbol.for('toolscope.startupMarks')
] ??= {
  enabled: process.env.TOOLSCOPE_STARTUP_MARKS === '1',
  printing: false,
  marked: new Set<string>(),
});

export function startupMark(name: string, detail?: Record<string, number>): void {
  // The first of each name only: a long run marks nothing after its first record.
  if (!state.enabled || state.marked.has(name)) return;
  state.marked.add(name);
  performance.mark(PREFIX + name, detail ? { detail } : undefined);
  if (state.printing) return;
  state.printing = true;
  process.once('exit', () => {
    const marks: Record<string, number | Record<string, number>> = { exit: performance.now() };
    for (const m of performance.getEntriesByType('mark')) {
      if (!m.name.startsWith(PREFIX)) continue;
      const key = m.name.slice(PREFIX.length);
      marks[key] = m.startTime;
      const d = (m as unknown as { detail?: Record<string, number> | null }).detail;
      if (d) for (const [k, v] of Object.entries(d)) marks[`${key}.${k}`] = v;
    }
    process.stderr.write(`toolscope-startup-marks ${JSON.stringify(marks)}\n`);
  });
}
