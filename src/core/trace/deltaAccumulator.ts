/**
 * Accumulates OpenAI-style deltas the way a client does: content concatenated, tool calls merged by index.
 * Used to compare streaming with one-shot parses, to rebuild recorded streams, and for "calls so far" views.
 */
import type { ParserDelta } from './parserDelta.ts';
import { mapped } from '../util/mapped.ts';

export interface AccumulatedCall {
  index: number;
  id: string | null;
  name: string | null;
  arguments: string;
  /** Each arguments fragment as it arrived. */
  fragments: string[];
}

export interface AccumulatedMessage {
  content: string | null;
  reasoning: string | null;
  calls: AccumulatedCall[];
}

export class DeltaAccumulator {
  private content = '';
  private reasoning = '';
  private sawContent = false;
  private sawReasoning = false;
  private readonly calls = new Map<number, AccumulatedCall>();

  /**
   * With `fragments: false` each call's fragments stay empty: a caller that wants only the accumulated message (the
   * vLLM profiles, ~30 fragments a call over thousands of calls) keeps no list it never reads.
   */
  constructor(private readonly options: { fragments: boolean } = { fragments: true }) {}

  add(delta: ParserDelta | null): void {
    if (!delta) return;
    if (typeof delta.content === 'string') {
      this.content += delta.content;
      this.sawContent = true;
    }
    if (typeof delta.reasoning_content === 'string') {
      this.reasoning += delta.reasoning_content;
      this.sawReasoning = true;
    }
    for (const tc of delta.tool_calls ?? []) {
      let call = this.calls.get(tc.index);
      if (!call) {
        call = { index: tc.index, id: null, name: null, arguments: '', fragments: [] };
        this.calls.set(tc.index, call);
      }
      if (tc.id !== undefined && tc.id !== null) call.id = call.id === null ? tc.id : call.id;
      if (tc.function?.name !== undefined && tc.function.name !== null) call.name = (call.name ?? '') + tc.function.name;
      const args = tc.function?.arguments;
      if (typeof args === 'string' && args !== '') {
        call.arguments += args;
        if (this.options.fragments) call.fragments.push(args);
      }
    }
  }

  message(): AccumulatedMessage {
    return {
      content: this.sawContent && this.content !== '' ? this.content : null,
      reasoning: this.sawReasoning && this.reasoning !== '' ? this.reasoning : null,
      // mapped, not map: checks read a record's calls (util/mapped.ts).
      calls: mapped(
        [...this.calls.values()].sort((a, b) => a.index - b.index),
        (c) => ({ ...c, fragments: [...c.fragments] }),
      ),
    };
  }
}

export function accumulate(deltas: Iterable<ParserDelta | null>): AccumulatedMessage {
  const acc = new DeltaAccumulator();
  for (const d of deltas) acc.add(d);
  return acc.message();
}
