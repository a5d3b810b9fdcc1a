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
  /** One per token; empty without a timeline. */
  events: ParseEvent[];
  /** What the end of the stream flushed (held-back text), after the last token. */
  finalEmitted: ParserDelta | null;
  result: ParseResult;
}

/**
 * `timeline` false: the parser is given the tokens' text in one piece. The parse is the same (split invariance: the
 * parsers give one result however the text is cut) and comes without a state and a delta per token, most of the
 * time and memory of parsing a long completion token by token.
 */
export function parseTokens(
  format: ToolCallFormat,
  tokens: ReadonlyArray<{ text: string }>,
  options?: ParserOptions,
  timeline = true,
): TokenParse {
  const parser = format.createParser(options);
  if (!timeline) {
    parser.push(tokens.map((t) => t.text).join(''));
    const finalEmitted = parser.finish();
    return { events: [], finalEmitted, result: parser.result() };
  }
  const events: ParseEvent[] = new Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const emitted = parser.push((tokens[i] as { text: string }).text);
    events[i] = { tokenIndex: i, state: parser.state, emitted };
  }
  const finalEmitted = parser.finish();
  return { events, finalEmitted, result: parser.result() };
}
