/**
 * Runs a format's streaming parser over a completion one token at a time, recording for every token the
 * parser state after it and what the client would have received: the timeline's data.
 */
import type { ParserDelta, ParserOptions, ParserState, ParseResult, ToolCallFormat } from './toolCallFormat.ts';

export interface ParseEvent {
  tokenIndex: number;
  state: ParserState;
  emitted: ParserDelta | null;
}

export interface TokenParse {
  events: ParseEvent[];
  /** What the end of the stream flushed (held-back text), after the last token. */
  finalEmitted: ParserDelta | null;
  result: ParseResult;
}

export function parseTokens(format: ToolCallFormat, tokens: ReadonlyArray<{ text: string }>, options?: ParserOptions): TokenParse {
  const parser = format.createParser(options);
  const events: ParseEvent[] = new Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const emitted = parser.push((tokens[i] as { text: string }).text);
    events[i] = { tokenIndex: i, state: parser.state, emitted };
  }
  const finalEmitted = parser.finish();
  return { events, finalEmitted, result: parser.result() };
}
