/**
 * A vLLM-behaviour profile: what one generation of vLLM's `kimi_k2` tool parser would have sent the client for
 * a raw Kimi K2 completion, delta by delta and non-streaming, bugs included. Profiles re-implement observable
 * behaviour (checked against outputs recorded from vLLM itself); they are not the reference parser.
 */
import type { VllmDeltaMessage, VllmGeneration } from '../../engineRun.ts';

export type { VllmDeltaMessage, VllmGeneration } from '../../engineRun.ts';

/** `ExtractedToolCallInformation`, flattened to what a client sees. */
export interface VllmExtraction {
  tools_called: boolean;
  content: string | null;
  tool_calls: Array<{ id: string; name: string; arguments: string }>;
}

export interface VllmStreamOptions {
  /**
   * The text of an ordinary (non-special) token id. Generation C splits each delta at special-token ids using
   * the tokenizer's decoding; without it the split falls back to anchoring the special tokens in the text.
   */
  decodeToken?: (id: number) => string | undefined;
}

export interface VllmStreamParser {
  /** One call of `extract_tool_calls_streaming`: the next delta's text and token ids; null for no delta. */
  push(deltaText: string, deltaTokenIds: readonly number[]): VllmDeltaMessage | null;
  /** End of stream: generation C's `finish_streaming()` flush; null for A and B, which have none. */
  finish(): VllmDeltaMessage | null;
}

export interface VllmProfile {
  readonly generation: VllmGeneration;
  /** vLLM commit the behaviour was recorded at. */
  readonly commit: string;
  readonly description: string;
  /**
   * The `kimi_k2` reasoning parser of the generation's era, as a server started with `--reasoning-parser kimi_k2`
   * runs it: whether a `<|tool_calls_section_begin|>` inside the think block ends the reasoning (and where that is
   * known from; see docs/formats/kimi-k2.md, "Engines disagree").
   */
  readonly reasoningParser: { readonly endsAtSection: boolean; readonly source: string };
  /** True when the generation has an end-of-stream flush (`finish_streaming`). */
  readonly hasFinish: boolean;
  createStreamParser(options?: VllmStreamOptions): VllmStreamParser;
  /** Non-streaming `extract_tool_calls` on the whole completion. */
  extract(text: string): VllmExtraction;
}
