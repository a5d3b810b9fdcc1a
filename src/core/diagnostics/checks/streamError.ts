/**
 * stream-error: a streamed response that ended with an error event (`data: {"error": …}`, Anthropic's
 * `event: error`, Responses' `response.failed`) instead of its finish: the client got part of an answer, or none.
 */
import { makeDiagnostic, type Check } from '../context.ts';

export const streamError: Check = (ctx) => {
  const { record, response } = ctx;
  if (typeof record.error !== 'string' || !response?.streamed) return [];
  const chunks = Array.isArray(record.response) ? record.response.length : 0;
  const got = chunks === 0 ? 'the stream was only an error' : `the stream broke after ${chunks} chunk${chunks === 1 ? '' : 's'}`;
  // analysis.ts reads markup quoted in the error as the completion (formats/quotedMarkup.ts).
  const quoted = record.completion !== undefined && record.error.endsWith(record.completion.text);
  return [
    makeDiagnostic(ctx, 'stream-error', {
      where: 'response',
      message: `${got}: ${JSON.stringify(record.error.length > 200 ? `${record.error.slice(0, 200)}…` : record.error)}${quoted ? ' — it quotes the model\'s tool-call markup, read here as the completion' : ''}`,
      hint: quoted
        ? "The server's tool parser failed on what the model wrote and sent an error instead of the calls; the dropped-call findings name each call the client lost."
        : 'The client received an incomplete answer. Retry, or check the server log for why the stream failed (overload, timeout, parser error).',
    }),
  ];
};
