/**
 * What the client received, chunk by chunk, placed on the completion's tokens where the recorded stream allows:
 * a chunk's text (content, reasoning, call id, name, argument fragment) is found in order in the raw completion,
 * and the chunk is placed on the tokens that hold it. A chunk whose text is not in the completion (the server
 * rewrote it) breaks the alignment from there on: the view then shows the stream per chunk.
 */
import { toParserDelta } from '../../core/trace/responseMessage.ts';
import type { AnalyzedRecord } from '../../core/analysis.ts';
import type { ParserDelta } from '../../shared/parserDelta.ts';
import type { ClientStreamView } from '../../shared/protocol.ts';

/** A stream longer than this is shown per chunk up to it (the rest is counted, not sent to the webview). */
export const CLIENT_CHUNKS_SHOWN = 20_000;

function piecesOf(delta: ParserDelta): string[] {
  const out: string[] = [];
  if (delta.reasoning_content) out.push(delta.reasoning_content);
  if (delta.content) out.push(delta.content);
  for (const tc of delta.tool_calls ?? []) {
    if (tc.id) out.push(tc.id);
    if (tc.function.name) out.push(tc.function.name);
    if (tc.function.arguments) out.push(tc.function.arguments);
  }
  return out;
}

/** The token holding each character offset (binary search over the tokens' start offsets). */
function tokenAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function clientStreamView(a: AnalyzedRecord): ClientStreamView | null {
  const response = a.response;
  if (!response?.streamed) return null;
  const deltas = response.deltas.slice(0, CLIENT_CHUNKS_SHOWN).map(toParserDelta);
  const tokens = a.completion?.tokens ?? [];
  const starts: number[] = [];
  let text = '';
  for (const t of tokens) {
    starts.push(text.length);
    text += t.text;
  }
  let pos = 0;
  let aligned = tokens.length > 0;
  // A chunk with nothing to find (the role chunk, the finish chunk) sits where the stream is.
  let at = 0;
  const chunks = deltas.map((delta): ClientStreamView['chunks'][number] => {
    if (!aligned) return { delta, tokenStart: null, tokenEnd: null };
    // The pieces of one chunk are looked for from where the chunk starts: a call's name is inside its id in Kimi's markup.
    let first: number | null = null;
    let end = pos;
    for (const piece of piecesOf(delta)) {
      const found = text.indexOf(piece, pos);
      if (found < 0) {
        aligned = false;
        return { delta, tokenStart: null, tokenEnd: null };
      }
      first = first === null ? found : Math.min(first, found);
      end = Math.max(end, found + piece.length);
    }
    pos = end;
    if (first === null) return { delta, tokenStart: at, tokenEnd: at + 1 };
    const tokenStart = tokenAt(starts, first);
    const tokenEnd = tokenAt(starts, pos - 1) + 1;
    at = tokenEnd - 1;
    return { delta, tokenStart, tokenEnd };
  });
  if (!aligned)
    return { chunks: chunks.map((c) => ({ delta: c.delta, tokenStart: null, tokenEnd: null })), aligned, total: response.deltas.length };
  return { chunks, aligned, total: response.deltas.length };
}
