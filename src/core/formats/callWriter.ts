/**
 * How a format's model writes tool calls into its completion: the inverse of the format's parser. The embedded
 * endpoint's simulated model answers with it (`serve --format NAME`), and guided decoding writes a corrected call
 * through the grammar piece by piece (guided/constrainedCalls.ts), so each piece is its own string: what leads to
 * the calls, a call's head up to its arguments, the arguments, the call's tail, and what closes the calls.
 */

export interface WrittenCall {
  name: string;
  /** The call's position in the conversation (Kimi K2 writes it into the id). */
  index: number;
  /** The arguments as a JSON object's text. */
  arguments: string;
}

export interface FormatCallWriter {
  /** What precedes the calls when the model says something first ('' where the format writes calls alone). */
  lead(content: string): string;
  /** What opens the calls (Kimi K2's section begin; '' where each call stands alone). */
  readonly open: string;
  /** Between two calls. */
  readonly separator: string;
  /** What closes the calls. */
  readonly close: string;
  /** A call up to its arguments. */
  head(name: string, index: number): string;
  /** The arguments in the format's spelling, from their JSON text (JSON itself where absent). */
  arguments?(json: string): string;
  /** A call after its arguments. */
  readonly tail: string;
}

/** The completion a model of the format writes: what it says, then the calls. */
export function writeCompletion(writer: FormatCallWriter, content: string, calls: readonly WrittenCall[]): string {
  const lead = content ? writer.lead(content) : '';
  if (calls.length === 0) return lead;
  const written = calls.map((c) => writer.head(c.name, c.index) + (writer.arguments?.(c.arguments) ?? c.arguments) + writer.tail);
  return lead + writer.open + written.join(writer.separator) + writer.close;
}
