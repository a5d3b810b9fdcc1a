/** Why a replay request failed, in words a user can act on. Partial results travel with the error. */
/**
 * `request`: the request could not be built (no tag for these tools, a template that fails); nothing was sent.
 * `stream-error`: the server sent an error event (`data: {"error": …}`) in the middle of a stream.
 * `too-large`: the answer passed the size limit (decoded bytes, so a compressed bomb stops there too).
 */
export type ReplayErrorKind =
  'connection' | 'http' | 'timeout' | 'aborted' | 'malformed-stream' | 'premature-end' | 'request' | 'stream-error' | 'too-large';

export class ReplayError extends Error {
  constructor(
    readonly kind: ReplayErrorKind,
    message: string,
    readonly status?: number,
    /** Seconds the server asked us to wait (Retry-After), when it did. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ReplayError';
  }

  /** Worth trying again: rate limits, server errors, dropped connections, timeouts. */
  get retryable(): boolean {
    return (
      this.kind === 'connection' ||
      this.kind === 'timeout' ||
      this.kind === 'premature-end' ||
      this.status === 429 ||
      (this.status !== undefined && this.status >= 500)
    );
  }
}

/** Node's fetch wraps network errors; dig out the code (ECONNREFUSED, ENOTFOUND, …) for the message. */
export function connectionError(url: string, err: unknown): ReplayError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? '';
  const what =
    code === 'ECONNREFUSED'
      ? 'connection refused: is the server running and listening on that port?'
      : code === 'ENOTFOUND'
        ? 'host not found'
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'the connection was reset'
          : (cause?.message ?? (err instanceof Error ? err.message : String(err)));
  return new ReplayError('connection', `cannot reach ${url}: ${what}`);
}

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : undefined;
}
