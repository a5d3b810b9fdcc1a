/**
 * Latency of one run from the timings a streamed replay keeps (`meta.timings`: time to first token, total, and
 * each chunk's arrival): TTFT and inter-token latency percentiles, and output tokens per second. A chunk is
 * taken as a token unless the completion reports `usage.completion_tokens` (engines stream about one token per
 * chunk; the simulator exactly one).
 */
import type { TraceRecord } from '../../core/trace/record.ts';
import { percentile } from './runStats.ts';

export interface Percentiles {
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

export interface RunLatency {
  /** Requests with timings. */
  timed: number;
  ttftMs: Percentiles;
  interTokenMs: Percentiles;
  /** Mean over requests of output tokens / (total − TTFT). */
  outputTokensPerS: number | null;
}

interface Timings {
  ttftMs: number | null;
  totalMs: number;
  eventMs: number[];
}

function timingsOf(record: TraceRecord): Timings | null {
  const t = record.meta?.timings as Partial<Timings> | undefined;
  if (!t || typeof t !== 'object' || typeof t.ttftMs !== 'number' || typeof t.totalMs !== 'number' || !Array.isArray(t.eventMs))
    return null;
  const eventMs = t.eventMs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return { ttftMs: t.ttftMs, totalMs: t.totalMs, eventMs };
}

function usageTokens(record: TraceRecord): number | null {
  const r = record.response;
  const usage = r && !Array.isArray(r) ? (r as { usage?: { completion_tokens?: unknown } }).usage : undefined;
  return typeof usage?.completion_tokens === 'number' ? usage.completion_tokens : null;
}

const pcts = (xs: number[]): Percentiles => ({ p50: percentile(xs, 50), p90: percentile(xs, 90), p99: percentile(xs, 99) });

export function runLatency(records: readonly TraceRecord[]): RunLatency | null {
  const ttft: number[] = [];
  const gaps: number[] = [];
  const rates: number[] = [];
  for (const record of records) {
    const t = timingsOf(record);
    if (!t || t.ttftMs === null) continue;
    ttft.push(t.ttftMs);
    for (let i = 1; i < t.eventMs.length; i++) gaps.push((t.eventMs[i] as number) - (t.eventMs[i - 1] as number));
    const tokens = usageTokens(record) ?? t.eventMs.length;
    const span = (t.totalMs - t.ttftMs) / 1000;
    if (span > 0 && tokens > 1) rates.push((tokens - 1) / span);
  }
  if (ttft.length === 0) return null;
  return {
    timed: ttft.length,
    ttftMs: pcts(ttft),
    interTokenMs: pcts(gaps),
    outputTokensPerS: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null,
  };
}
