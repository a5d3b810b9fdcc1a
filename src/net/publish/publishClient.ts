/**
 * Sends a target's batches over HTTP: one POST a batch, retried on 429, 5xx and dropped connections with
 * K2-Vendor-Verifier's backoff (src/net/replay/retry.ts: min(2·2^n, 60) s plus jitter, a server's Retry-After
 * honoured up to 60 s). A batch the server answers 2xx is accepted (less what it says it refused: OTLP's
 * partial_success); any other answer, or retries run out, refuses the whole batch with the status and the server's
 * words. Keys travel only in the headers given; every message is scrubbed of them, since servers echo credentials.
 */
import { backoffMs } from '../replay/retry.ts';
import { parseRetryAfter } from '../replay/replayError.ts';

export interface BatchOutcome {
  sent: number;
  accepted: number;
  refused: number;
  attempts: number;
  /** Why items were refused (status and the server's words), keys scrubbed; null when none were. */
  error: string | null;
  /** The server could not be reached, retries included (the caller sends no more batches). */
  unreachable: boolean;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  /** Every secret value the headers hold: scrubbed from every message. */
  secrets: readonly string[];
  retries: number;
  /** For tests: scale the waits between attempts (Retry-After included); messages name the unscaled wait. */
  delayScale?: number;
  random?: () => number;
  /** Called before each wait: which attempt comes next, after how long, and why. */
  onRetry?: (attempt: number, delayMs: number, why: string) => void;
}

/** The server's words, at most this many characters of them. */
const ANSWER_MAX = 300;

/** The server's words, keys scrubbed before the cut (a cut first could leave a key's first part in the message). */
const words = (text: string, secrets: readonly string[]) => scrub(text, secrets).slice(0, ANSWER_MAX);

export function scrub(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out;
}

const retryable = (status: number) => status === 429 || status >= 500;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** POSTs `body` until it is answered without a retryable failure or retries run out. */
export async function sendBatch(
  body: unknown,
  items: number,
  partialRefusal: (answer: unknown, sent: number) => { refused: number; message: string } | null,
  options: SendOptions,
): Promise<BatchOutcome> {
  const payload = JSON.stringify(body);
  for (let n = 0; ; n++) {
    let why: string;
    let retryAfter: number | undefined;
    let again = true;
    let unreachable = false;
    try {
      const res = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: payload,
        redirect: 'error',
      });
      const answer = await res.text();
      if (res.ok) {
        let parsed: unknown = null;
        try {
          parsed = answer ? JSON.parse(answer) : null;
        } catch {
          // A 2xx that is not JSON is still an acceptance.
        }
        const partial = partialRefusal(parsed, items);
        if (!partial) return { sent: items, accepted: items, refused: 0, attempts: n + 1, error: null, unreachable: false };
        const refused = Math.min(items, partial.refused);
        const error = `HTTP ${res.status}: ${refused} refused: ${words(partial.message, options.secrets)}`;
        return { sent: items, accepted: items - refused, refused, attempts: n + 1, error, unreachable: false };
      }
      why = `HTTP ${res.status}${answer ? `: ${words(answer, options.secrets)}` : ''}`;
      again = retryable(res.status);
      retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      why = `cannot reach ${options.url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`;
      unreachable = true;
    }
    why = scrub(why, options.secrets);
    if (!again || n >= options.retries)
      return {
        sent: items,
        accepted: 0,
        refused: items,
        attempts: n + 1,
        error: n > 0 ? `${why} (after ${n + 1} attempts)` : why,
        unreachable,
      };
    const delay = backoffMs(n, retryAfter, options.random);
    options.onRetry?.(n + 1, delay, why);
    await sleep(delay * (options.delayScale ?? 1));
  }
}
