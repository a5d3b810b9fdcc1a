/**
 * Retries with K2-Vendor-Verifier's backoff: min(2·2^n, 60) s plus up to 25% jitter, or the server's
 * Retry-After when it gave one. Only retryable failures (429, 5xx, dropped connections, timeouts) retry.
 */
import { ReplayError } from './replayError.ts';

export interface RetryOptions {
  retries: number;
  signal?: AbortSignal;
  onRetry?: (attempt: number, delayMs: number, error: ReplayError) => void;
  /** For tests: scale delays down. */
  delayScale?: number;
  random?: () => number;
}

export function backoffMs(attempt: number, retryAfter: number | undefined, random: () => number = Math.random): number {
  if (retryAfter !== undefined) return retryAfter * 1000;
  const base = Math.min(2 * 2 ** attempt, 60);
  return (base + base * 0.25 * random()) * 1000;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ReplayError('aborted', 'cancelled'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new ReplayError('aborted', 'cancelled'));
    }, { once: true });
  });
}

/** Runs `attempt` until it returns without a retryable error or retries run out; returns the last result. */
export async function withRetries<T extends { error: ReplayError | null }>(attempt: () => Promise<T>, options: RetryOptions): Promise<T & { attempts: number }> {
  for (let n = 0; ; n++) {
    const result = await attempt();
    if (!result.error || !result.error.retryable || n >= options.retries || options.signal?.aborted) return { ...result, attempts: n + 1 };
    const delay = backoffMs(n, result.error.retryAfter, options.random) * (options.delayScale ?? 1);
    options.onRetry?.(n + 1, delay, result.error);
    try {
      await sleep(delay, options.signal);
    } catch {
      return { ...result, attempts: n + 1 };
    }
  }
}
