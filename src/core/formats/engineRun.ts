/**
 * What a replay of a serving engine's own parser over a completion takes and gives (`--vllm-profile`): the
 * contract of `ToolCallFormat.engineProfiles`. vLLM's streaming shapes, kept apart from any one format's profiles.
 */
import type { Token } from '../tokens/token.ts';
import type { VllmDeltaMessage, VllmGeneration, VllmGroupingChoice, VllmGroupingUsed } from '../../shared/vllmStream.ts';

export type { VllmDeltaMessage, VllmGeneration, VllmGroupingChoice, VllmGroupingUsed } from '../../shared/vllmStream.ts';

/** A delta grouping a record shows (its recorded stream chunks). */
export interface RecordedGrouping {
  /** The delta texts, in order; they spell the completion. */
  texts: string[];
  /** Where they come from, in words. */
  source: string;
}

export interface VllmCall {
  id: string;
  name: string;
  arguments: string;
}

/** One entry per input delta as vLLM returned it (set fields only, or null); C adds `{__finish__}` at the end. */
export type VllmDeltaEntry = VllmDeltaMessage | { __finish__: VllmDeltaMessage | null } | null;

export interface VllmRunInput {
  generation: VllmGeneration;
  /** The completion text (special tokens included). */
  text: string;
  /** Its tokens, recorded or split, tiling the text. */
  tokens: readonly Token[];
  grouping: VllmGroupingChoice;
  /** The record's own delta grouping, when it has one. */
  recorded: RecordedGrouping | null;
  /** The template opened `<think>`: the completion starts inside reasoning. */
  startInReasoning?: boolean;
  /** The server runs a reasoning parser (`--reasoning-parser kimi_k2`); default true. */
  reasoningParser?: boolean;
}

export interface VllmRun {
  profile: VllmGeneration;
  /** The vLLM commit the profile reproduces. */
  commit: string;
  /** What the generation is, in a sentence (the editor's vLLM tab). */
  description: string;
  grouping: VllmGroupingUsed;
  /** Why the grouping asked for was not used (no recorded grouping), or null. */
  groupingNote: string | null;
  /** Where the record's own grouping comes from, when it has one (the editor offers it). */
  recordedSource: string | null;
  /** Characters taken by the reasoning parser (a leading think block) before the tool parser's input. */
  reasoningEnd: number;
  /** What the client would have accumulated from the stream. */
  content: string | null;
  calls: VllmCall[];
  deltas: VllmDeltaEntry[];
  /** The completion characters of each input delta (parallel to the input deltas, not to `__finish__`). */
  spans: Array<{ start: number; end: number }>;
  /** The non-streaming answer (`extract_tool_calls`) for the same text. */
  nonstream: { content: string | null; calls: VllmCall[] };
}

/** How a run grouped the completion into deltas, in words (findings, the report, the editor). */
export function groupingLabel(g: VllmGroupingUsed): string {
  if (g.kind === 'recorded') return `as recorded (${g.source})`;
  return g.perDelta === 1 ? '1 token per delta' : `${g.perDelta} tokens per delta`;
}

/** The non-streaming answer a server running a generation's parser gives. */
export interface EngineChatMessage {
  content: string | null;
  reasoning: string | null;
  calls: VllmCall[];
}

/**
 * A generation's parser as a server runs it over a completion's tokens, one token per delta (the embedded endpoint's
 * `serve --vllm-profile`): the chunk deltas a client of that server receives, and its non-streaming answer.
 */
export interface EngineServerParser {
  /** The chunk delta for token `i`, or null when the server would have sent nothing for it. */
  push(i: number): Record<string, unknown> | null;
  /** End of stream: the generation's flush, if it has one. */
  finish(): Record<string, unknown> | null;
  message(): EngineChatMessage;
}
