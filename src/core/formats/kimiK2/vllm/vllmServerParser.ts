/**
 * The embedded endpoint's tool parsing as a vLLM generation does it (`toolscope serve --vllm-profile A|B|C`), to
 * reproduce what a client of that vLLM saw. A leading think block goes out as `reasoning_content` (vLLM's reasoning
 * parser); the rest goes through the generation's profile one token per delta with the token's id, and its
 * DeltaMessages become the chunks' deltas unchanged (`content: ""` and all).
 */
import { reasoningEnd } from './profileRun.ts';
import type { VllmDeltaMessage, VllmGeneration, VllmStreamParser } from './vllmProfile.ts';
import { vllmProfile } from './vllmProfiles.ts';
import type { Token } from '../../../tokens/token.ts';
import type { EngineChatMessage, EngineServerParser } from '../../engineRun.ts';

const THINK = new Set(['<think>', '</think>']);

export class VllmServerParser implements EngineServerParser {
  private readonly stream: VllmStreamParser;
  private readonly reasoningEnd: number;

  constructor(
    private readonly generation: VllmGeneration,
    private readonly tokens: ReadonlyArray<Token & { id: number }>,
    private readonly text: string,
  ) {
    const texts = new Map(tokens.map((t) => [t.id, t.text] as const));
    this.stream = vllmProfile(generation).createStreamParser({ decodeToken: (id) => texts.get(id) });
    this.reasoningEnd = reasoningEnd(tokens, text.length, false, vllmProfile(generation).reasoningParser.endsAtSection);
  }

  /** The chunk delta for token `i`, or null when vLLM would have sent nothing for it. */
  push(i: number): Record<string, unknown> | null {
    const t = this.tokens[i];
    if (!t) return null;
    if (t.charStart < this.reasoningEnd) return THINK.has(t.text) ? null : { reasoning_content: t.text };
    return chunkDelta(this.stream.push(t.text, [t.id]));
  }

  /** End of stream: generation C's flush. */
  finish(): Record<string, unknown> | null {
    return chunkDelta(this.stream.finish());
  }

  /** The non-streaming answer (`extract_tool_calls` on the text after the reasoning). */
  message(): EngineChatMessage {
    const reasoning = this.text.slice(0, this.reasoningEnd).replace(/<\/?think>/gu, '');
    const r = vllmProfile(this.generation).extract(this.text.slice(this.reasoningEnd));
    return {
      content: r.content,
      reasoning: reasoning || null,
      calls: r.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    };
  }
}

function chunkDelta(m: VllmDeltaMessage | null): Record<string, unknown> | null {
  if (!m) return null;
  const out: Record<string, unknown> = {};
  if (m.content !== undefined) out.content = m.content;
  if (m.tool_calls) out.tool_calls = m.tool_calls;
  return out;
}
