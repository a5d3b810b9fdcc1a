/**
 * Servers report a failure inside a stream as an event of its own instead of a chunk: vLLM and SGLang send
 * `data: {"error": {"message": …}}` (then often `[DONE]`), some send `{"object": "error", "message": …}`. Such an
 * event is not part of the answer: the answer broke off there.
 */

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A payload's error message when it is an error object, else null. */
export function errorPayload(value: unknown): string | null {
  if (!isObject(value)) return null;
  if (value.object === 'error' && typeof value.message === 'string') return value.message;
  const e = value.error;
  if (typeof e === 'string') return e;
  if (isObject(e)) return typeof e.message === 'string' ? e.message : JSON.stringify(e);
  return null;
}
