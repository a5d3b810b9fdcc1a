/**
 * What a vLLM generation streams, as the editor shows it next to the reference parse (`--vllm-profile`): the
 * generations Toolscope reproduces, their DeltaMessages, and how a completion's tokens are grouped into deltas. The
 * run itself is core/formats/engineRun.ts.
 */
import type { ToolCallDelta } from './parserDelta.ts';

/** A vLLM generation Toolscope reproduces (docs/formats/kimi-k2.md lists the commits). */
export type VllmGeneration = 'A' | 'B' | 'C';

/**
 * One DeltaMessage as vLLM returned it, with only the fields it set. Unlike `ParserDelta`, an empty
 * `content: ""` is meaningful here: generation A returns it where it swallows text.
 */
export interface VllmDeltaMessage {
  content?: string;
  tool_calls?: ToolCallDelta[];
}

/** What the user asks for: N tokens per delta, or the grouping the record shows. */
export type VllmGroupingChoice = { kind: 'tokens'; perDelta: number } | { kind: 'recorded' };

/** The grouping a run used. */
export type VllmGroupingUsed = { kind: 'tokens'; perDelta: number } | { kind: 'recorded'; source: string };
