/** Text for eval figures: one column per run set, mean ± sd (min–max) across repeated runs, and pass bars. */
import { FIGURE_NAMES, RATE_FIGURES, type EvalReport } from '../host/eval/evalFigures.ts';
import { checkPassBars, type BarResult, type PassBar } from '../host/eval/passPolicy.ts';

export function formatFigure(name: string, v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'n/a';
  if (RATE_FIGURES.has(name)) return `${(v * 100).toFixed(2)}%`;
  if (name.endsWith('_ms')) return `${v.toFixed(1)} ms`;
  if (name === 'output_tokens_per_s') return `${v.toFixed(1)}/s`;
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

/** One cell: the value of a single run, or mean ± sd (min–max) across runs. */
export function statCell(report: EvalReport, name: string): string {
  const s = report.stats[name];
  if (!s) return 'n/a';
  if (report.runs.length <= 1) return formatFigure(name, s.mean);
  const sd = RATE_FIGURES.has(name) ? `${(s.sd * 100).toFixed(2)}` : formatFigure(name, s.sd).replace(/%$/, '');
  return `${formatFigure(name, s.mean)} ± ${sd} (${formatFigure(name, s.min)}–${formatFigure(name, s.max)})`;
}

export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [fmt(header), ...rows.map(fmt)].join('\n') + '\n';
}

/** Figures down, runs across. */
export function figuresTable(columns: ReadonlyArray<{ label: string; report: EvalReport }>): string {
  const names = FIGURE_NAMES.filter((n) => columns.some((c) => c.report.stats[n]));
  return textTable(
    ['figure', ...columns.map((c) => c.label)],
    names.map((n) => [n, ...columns.map((c) => statCell(c.report, n))]),
  );
}

/** Checks the bars against every column (the mean across runs); writes a line per failing bar. */
export function applyPassBars(
  bars: readonly PassBar[],
  columns: ReadonlyArray<{ label: string; report: EvalReport }>,
  err: NodeJS.WritableStream,
): BarResult[] {
  const failed: BarResult[] = [];
  for (const c of columns) {
    for (const r of checkPassBars(bars, (f) => c.report.stats[f]?.mean ?? null)) {
      if (r.passed) continue;
      failed.push(r);
      const value =
        r.value === null
          ? `not available${r.figure === 'f1' || r.figure === 'precision' || r.figure === 'recall' ? ' (needs --reference)' : ''}`
          : formatFigure(r.figure, r.value);
      err.write(
        `toolscope: FAIL ${c.label}: ${r.figure} ${value} is under ${formatFigure(r.figure, r.min)} (--fail-under ${r.name}=${r.min})\n`,
      );
    }
  }
  return failed;
}
