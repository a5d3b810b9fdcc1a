/**
 * stream-error: a streamed answer that carried an error event (`data: {"error": …}` from vLLM, llama.cpp or exo;
 * Anthropic's `event: error`; Responses' `response.failed`) instead of finishing: the client got part of an answer,
 * or none. The chunks before the error are kept; a stream that is only an error is still a record. A line that is a
 * serving engine's error body (Ollama's `{"error": "error parsing tool call: …"}`, llama-server's `{"error": {"code":
 * 500, "message": "Failed to parse input at pos N: …"}}`) is a failed record of its own: detail `error-body`.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { errorPayload } from '../../trace/errorPayload.ts';
import type { TraceRecord } from '../../trace/record.ts';

const STREAM_ERROR = diagnosticKind({ kind: 'stream-error', code: 'TS031', severity: 'error', title: 'Stream ended with an error event' });

/** Error events a record holds: listed by the proxy and replay (`meta.streamErrors`), or left among the chunks. */
function streamErrors(record: TraceRecord): string[] {
  const listed = record.meta?.streamErrors;
  if (Array.isArray(listed)) return listed.filter((e): e is string => typeof e === 'string');
  if (!Array.isArray(record.response)) return [];
  return record.response.flatMap((chunk) => {
    const message = errorPayload(chunk);
    return message === null ? [] : [message];
  });
}

const clip = (s: string): string => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** What the error body says, with its status when it was captured and what its markup became. */
function errorBodyFinding(ctx: CheckContext, message: string, quoted: boolean): Diagnostic {
  const status = ctx.record.meta?.httpStatus;
  const answered =
    typeof status === 'number' ? `the server answered HTTP ${status} with an error body` : 'the server answered with an error body';
  return makeDiagnostic(ctx, STREAM_ERROR, {
    where: 'response',
    detail: 'error-body',
    message: `${answered} instead of a completion: ${clip(message)}${quoted ? "; it quotes the model's tool-call markup, read here as the completion" : ''}`,
    hint: quoted
      ? "The server's tool parser failed on what the model wrote and answered with an error instead of the calls; the dropped-call findings name each call the client lost."
      : "The request failed on the server; when the message names a tool call (Ollama's `error parsing tool call`), the model wrote a call the server's parser could not read. The server log at that time has the rest.",
  });
}

export const streamError = defineCheck({
  stage: 'sync',
  kinds: [STREAM_ERROR],
  run: (ctx) => {
    const { record, response } = ctx;
    // analysis.ts reads markup quoted in the error as the completion (formats/quotedMarkup.ts).
    const quotedIn = (error: unknown): boolean =>
      typeof error === 'string' && record.completion !== undefined && error.endsWith(record.completion.text);
    if (record.meta?.errorBody === true && typeof record.error === 'string')
      return [errorBodyFinding(ctx, record.error, quotedIn(record.error))];
    const events = streamErrors(record);
    // An imported stream keeps its error event as the record's error (the chunks before it stay the response).
    if (events.length === 0 && typeof record.error === 'string' && response?.streamed) events.push(record.error);
    if (events.length === 0) return [];
    const chunks = Array.isArray(record.response) ? record.response.length : 0;
    const got = chunks === 0 ? 'the stream was only an error' : `the stream broke after ${chunks} chunk${chunks === 1 ? '' : 's'}`;
    const quoted = quotedIn(record.error);
    return events.map((message) =>
      makeDiagnostic(ctx, STREAM_ERROR, {
        where: 'response',
        message: `${got}: ${clip(message)}${quoted ? " — it quotes the model's tool-call markup, read here as the completion" : ''}`,
        hint: quoted
          ? "The server's tool parser failed on what the model wrote and sent an error instead of the calls; the dropped-call findings name each call the client lost."
          : 'The answer stops at the error; the chunks before it are kept. Look at the server log for that time (out of memory, a guided-decoding failure, a timeout in the engine).',
      }),
    );
  },
});
