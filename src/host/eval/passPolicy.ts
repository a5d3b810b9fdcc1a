/**
 * `--fail-under f1=0.8,schema=0.95`: minimum values for named figures. A run passes when every named figure's
 * value (the mean across runs of a repeated evaluation) reaches its bar; a figure the run does not have (F1
 * without a reference) is an error, not a pass.
 */
import { FIGURE_ALIASES } from './evalFigures.ts';

export interface PassBar {
  /** As written (`schema`). */
  name: string;
  /** The figure it names (`schema_accuracy`). */
  figure: string;
  min: number;
}

export interface BarResult extends PassBar {
  value: number | null;
  passed: boolean;
}

/** Parses `name=value,…`; a value may be a fraction (0.8) or a percentage (80%). Throws with what is wrong. */
export function parsePassBars(text: string, known: readonly string[]): PassBar[] {
  const bars: PassBar[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9_]+)\s*=\s*(-?[0-9]*\.?[0-9]+)\s*(%?)$/i.exec(part);
    if (!m) throw new Error(`"${part}" is not NAME=VALUE (e.g. f1=0.8 or schema=95%)`);
    const name = (m[1] as string).toLowerCase();
    const figure = FIGURE_ALIASES[name] ?? name;
    if (!known.includes(figure))
      throw new Error(`unknown figure "${name}"; one of: ${[...Object.keys(FIGURE_ALIASES), ...known].join(', ')}`);
    const min = Number(m[2]) / (m[3] ? 100 : 1);
    bars.push({ name, figure, min });
  }
  if (bars.length === 0) throw new Error('no figures given');
  return bars;
}

export function checkPassBars(bars: readonly PassBar[], value: (figure: string) => number | null | undefined): BarResult[] {
  return bars.map((b) => {
    const v = value(b.figure);
    const val = typeof v === 'number' && Number.isFinite(v) ? v : null;
    return { ...b, value: val, passed: val !== null && val >= b.min };
  });
}
