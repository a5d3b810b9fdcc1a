/** Mean, sample standard deviation, min and max of one figure across the runs of a repeated evaluation. */
export interface FigureStats {
  mean: number;
  /** Sample standard deviation (n − 1); 0 for a single run. */
  sd: number;
  min: number;
  max: number;
  /** Runs in which the figure was defined. */
  n: number;
}

export function figureStats(values: ReadonlyArray<number | null | undefined>): FigureStats | null {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (xs.length === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, sd, min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

/** Linear-interpolated percentile (p in 0–100) of unsorted values; null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const xs = [...values].sort((a, b) => a - b);
  const pos = (p / 100) * (xs.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (xs[lo] as number) + ((xs[hi] as number) - (xs[lo] as number)) * (pos - lo);
}
