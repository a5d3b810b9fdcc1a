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
  /**
   * One argument in the format's spelling, where the format writes arguments member by member rather than as one
   * JSON object (Qwen3-Coder's `<parameter=KEY>` blocks): the arguments are then these, in order.
   */
  member?(key: string, value: unknown): string;
  /** Between two members (Gemma's `,`); '' when absent. */
  readonly memberSeparator?: string;
  /** A call after its arguments. */
  readonly tail: string;
}

/** The completion a model of the format writes: what it says, then the calls. */
export function writeCompletion(writer: FormatCallWriter, content: string, calls: readonly WrittenCall[]): string {
  const lead = content ? writer.lead(content) : '';
  if (calls.length === 0) return lead;
  const written = calls.map((c) => writer.head(c.name, c.index) + argumentsText(writer, c.arguments) + writer.tail);
  return lead + writer.open + written.join(writer.separator) + writer.close;
}

/** A call's arguments in the writer's spelling: the JSON text itself, or its members one by one. */
export function argumentsText(writer: FormatCallWriter, json: string): string {
  if (!writer.member) return json;
  const args = JSON.parse(json) as Record<string, unknown>;
  return Object.entries(args)
    .map(([key, value]) => (writer.member as NonNullable<FormatCallWriter['member']>)(key, value))
    .join(writer.memberSeparator ?? '');
}
