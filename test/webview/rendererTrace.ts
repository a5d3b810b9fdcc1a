/**
 * What the renderers' main threads did in a Chromium trace (playwright's `browser.startTracing`): the workbench e2e's
 * scroll and the browser test's fling (listScrolling.test.ts, TOOLSCOPE_TRACE_SCROLL=1) print it.
 */

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's CPU time over the event (dur is wall-clock time). */
  tdur?: number;
  args?: { name?: string; data?: { type?: string } };
}

/**
 * What each renderer's main thread did in a Chromium trace, per frame of `frames`: its tasks' time, and the time of
 * the steps inside them that name the work (script, message events, style, layout, paint, GC), ms per frame of wall
 * time with the thread's CPU time in brackets. On a loaded machine a thread waits for a core inside its tasks: their
 * wall time grows and their CPU time does not (at load 14 the page's tasks took 2.2 times their CPU time).
 */
export function mainThreadWork(trace: Buffer, frames: number): string {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const STEPS = [
    'FunctionCall',
    'EventDispatch',
    'FireAnimationFrame',
    'TimerFire',
    'RunMicrotasks',
    'UpdateLayoutTree',
    'Layout',
    'PrePaint',
    'Paint',
    'Layerize',
    'MinorGC',
    'MajorGC',
  ];
  const per = new Map<string, Map<string, { wall: number; cpu: number }>>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || !main.has(thread) || e.dur === undefined) continue;
    const name =
      e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask'
        ? 'tasks'
        : e.name === 'EventDispatch'
          ? `EventDispatch ${e.args?.data?.type ?? ''}`.trim()
          : e.name;
    if (name !== 'tasks' && !STEPS.includes(e.name)) continue;
    const m = per.get(thread) ?? new Map<string, { wall: number; cpu: number }>();
    const t = m.get(name) ?? { wall: 0, cpu: 0 };
    t.wall += e.dur / 1000;
    t.cpu += (e.tdur ?? 0) / 1000;
    m.set(name, t);
    per.set(thread, m);
  }
  return [...per]
    .sort((a, b) => (b[1].get('tasks')?.wall ?? 0) - (a[1].get('tasks')?.wall ?? 0))
    .slice(0, 3)
    .map(
      ([thread, m]) =>
        `renderer ${thread}: ${[...m]
          .sort((a, b) => b[1].wall - a[1].wall)
          .filter(([, t]) => t.wall / frames >= 0.05)
          .map(([n, t]) => `${n} ${(t.wall / frames).toFixed(2)} (${(t.cpu / frames).toFixed(2)})`)
          .join(', ')} ms/frame, wall (CPU)`,
    )
    .join('; ');
}
