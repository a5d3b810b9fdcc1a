/**
 * Retries with K2-Vendor-Verifier's backoff: min(2·2^n, 60) s plus up to 25% jitter. A server's Retry-After is
 * honoured up to the same 60 s cap (a `Retry-After: 86400` must not park a run for a day), and no wait runs past
 * the deadline (`--timeout` bounds one replay, retries included). Only retryable failures (429, 5xx, dropped
 * connections, timeouts) retry.
 */
import { ReplayError } from './replayError.ts';

/** K2VV's cap on one wait, in seconds. */
export const MAX_RETRY_WAIT_S = 60;

export interface RetryOptions {
  retries: number;
  signal?: AbortSignal;
  onRetry?: (attempt: number, delayMs: number, error: ReplayError) => void;
  /** For tests: scale delays down. */
  delayScale?: number;
  random?: () => number;
  /** `performance.now()` past which no attempt starts and no wait ends. */
  deadline?: number;
}

export function backoffMs(attempt: number, retryAfter: number | undefined, random: () => number = Math.random): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, MAX_RETRY_WAIT_S) * 1000;
  const base = Math.min(2 * 2 ** attempt, MAX_RETRY_WAIT_S);
  return (base + base * 0.25 * random()) * 1000;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ReplayError('aborted', 'cancelled'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new ReplayError('aborted', 'cancelled'));
      },
      { once: true },
    );
  });
}

/** The same error, saying why it was not retried. */
function notRetried(error: ReplayError, delayMs: number): ReplayError {
  const asked =
    error.retryAfter !== undefined
      ? `the server asked to retry after ${error.retryAfter} s (Retry-After)`
      : `the next retry was due in ${(delayMs / 1000).toFixed(1)} s`;
  return new ReplayError(error.kind, `${error.message}; ${asked}, past the timeout: not retried`, error.status, error.retryAfter);
}

/**
 * Runs `attempt` (given the milliseconds left before the deadline) until it returns without a retryable error or
 * retries run out; returns the last result.
 */
export async function withRetries<T extends { error: ReplayError | null }>(
  attempt: (remainingMs: number | undefined) => Promise<T>,
  options: RetryOptions,
): Promise<T & { attempts: number }> {
  const remaining = () => (options.deadline === undefined ? undefined : Math.max(1, options.deadline - performance.now()));
  for (let n = 0; ; n++) {
    const result = await attempt(remaining());
    if (!result.error || !result.error.retryable || n >= options.retries || options.signal?.aborted) return { ...result, attempts: n + 1 };
    const delay = backoffMs(n, result.error.retryAfter, options.random) * (options.delayScale ?? 1);
    if (options.deadline !== undefined && performance.now() + delay >= options.deadline)
      return { ...result, error: notRetried(result.error, delay), attempts: n + 1 };
    options.onRetry?.(n + 1, delay, result.error);
    try {
      await sleep(delay, options.signal);
    } catch {
      return { ...result, attempts: n + 1 };
    }
  }
}
