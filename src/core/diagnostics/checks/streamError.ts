/**
 * stream-error: a streamed answer that carried an error event (`data: {"error": …}` from vLLM, llama.cpp or exo;
 * Anthropic's `event: error`; Responses' `response.failed`) instead of finishing: the client got part of an answer,
 * or none. The chunks before the error are kept; a stream that is only an error is still a record.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
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

export const streamError = defineCheck({
  stage: 'sync',
  kinds: [STREAM_ERROR],
  run: (ctx) => {
    const { record, response } = ctx;
    const events = streamErrors(record);
    // An imported stream keeps its error event as the record's error (the chunks before it stay the response).
    if (events.length === 0 && typeof record.error === 'string' && response?.streamed) events.push(record.error);
    if (events.length === 0) return [];
    const chunks = Array.isArray(record.response) ? record.response.length : 0;
    const got = chunks === 0 ? 'the stream was only an error' : `the stream broke after ${chunks} chunk${chunks === 1 ? '' : 's'}`;
    // analysis.ts reads markup quoted in the error as the completion (formats/quotedMarkup.ts).
    const quoted = typeof record.error === 'string' && record.completion !== undefined && record.error.endsWith(record.completion.text);
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
