/**
 * Everything a diagnostic check may look at for one record, computed once by the analysis pipeline.
 */
import type { GrammarEngine } from '../guided/grammarEngine.ts';
import type { VllmRun } from '../formats/engineRun.ts';
import type { CallIdRules, ParseResult, ToolCallFormat } from '../formats/toolCallFormat.ts';
import type { ToolSchemas } from '../schema/toolSchemas.ts';
import type { Token, TokenSource } from '../tokens/token.ts';
import type { ChatRequest, ChatTool, TraceRecord } from '../trace/record.ts';
import type { ResponseMessage } from '../trace/responseMessage.ts';
import type { Diagnostic, DiagnosticKindInfo, DiagnosticWhere, Severity } from './diagnostic.ts';

/** A tool call as the checks see it, from whichever side of the record carries it. */
export interface CheckedCall {
  index: number;
  id: string | null;
  name: string | null;
  arguments: string;
  where: DiagnosticWhere;
  /** Char range of the arguments (completion calls) for anchoring. */
  argumentsStart: number | null;
  argumentsEnd: number | null;
  start: number | null;
  end: number | null;
}

export interface CheckContext {
  record: TraceRecord;
  /** The tool-call format the record is in (markers, id rules). */
  format: ToolCallFormat;
  /**
   * The call-id rules to hold the record's ids to: the format's, or null when it has none (the model writes no ids)
   * or when the format was only assumed for lack of evidence (a response from an unknown model).
   */
  callIds: CallIdRules | null;
  /** The raw completion text (rebuilt with special tokens when the engine skipped them), or null. */
  completionText: string | null;
  tokens: Token[];
  /** Where the tokens' boundaries come from (re-encoded boundaries say nothing about what the engine generated). */
  tokenSource: TokenSource | null;
  /** The reference parse of the completion, or null without one. */
  parse: ParseResult | null;
  response: ResponseMessage | null;
  /** The tools the request offered, by name (the first of each name, as K2-Vendor-Verifier does). */
  tools: ReadonlyMap<string, ChatTool> | null;
  schemas: ToolSchemas;
  /** The calls to check: from the reference parse when there is a completion, else from the response. */
  calls: CheckedCall[];
  /** The prompt: as recorded, or the request rendered with the user's template; null without either. */
  prompt: string | null;
  /** The finish reason the client saw (response), else the completion's. */
  finishReason: string | null;
  /** What was wrong with the recorded tokens (recordedTokenCheck.ts), or null. */
  tokenProblem: string | null;
  /** Why the recorded tokens could not be used as they are (they do not join to the text), or null. */
  tokenMismatch: string | null;
  /** The completion is above the size limit: what was skipped for it; null otherwise. */
  oversized: Oversized | null;
}

/** The profile stage's context: a completion that was parsed, and an engine profile's run over it (`--vllm-profile`). */
export interface ProfileCheckContext extends CheckContext {
  completionText: string;
  parse: ParseResult;
  engineRun: VllmRun;
}

/** What is known of a record before its tokens are split and parsed: what an async check starts from. */
export interface EarlyRecord {
  format: ToolCallFormat;
  /** The completion text the analysis reads (markup quoted in an error included), or null without one. */
  completionText: string | null;
  /** The request's tools (an earlier record's equal tool set where there is one: toolSets.ts) and tool choice. */
  request: Pick<ChatRequest, 'tools' | 'tool_choice'> | undefined;
  finishReason: string | null;
  /** The completion starts inside `<think>` (the template opened it). */
  startInReasoning: boolean;
  /** The engine the what-if runs on (AnalysisServices), or null: no what-if. */
  grammarEngine: GrammarEngine | null;
}

/** A completion above the size limit (AnalysisOptions.maxCompletionMB): its size, the limit, what was skipped. */
export interface Oversized {
  chars: number;
  limit: number;
  skipped: string[];
}

export interface DiagnosticInit {
  severity?: Severity;
  message: string;
  hint: string;
  where: DiagnosticWhere;
  charStart?: number | null;
  charEnd?: number | null;
  callIndex?: number;
  path?: string;
  /** Which variant of the kind (e.g. the format of leaked markup). */
  detail?: string;
}

/** Token range covering a char range; a zero-width range anchors to the token before it. */
export function tokenRange(tokens: readonly Token[], start: number, end: number): { tokenStart: number | null; tokenEnd: number | null } {
  if (tokens.length === 0) return { tokenStart: null, tokenEnd: null };
  // First token whose end is past `start` (binary search: tokens tile the text in order).
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((tokens[mid] as Token).charEnd <= start) lo = mid + 1;
    else hi = mid;
  }
  let first = lo;
  let last = first;
  while (last < tokens.length && (tokens[last] as Token).charStart < end) last++;
  if (last === first) {
    // Zero-width (or past the end): the token holding the position, else the one just before it.
    const holder = tokens[first];
    if (!holder || holder.charStart > start) first = Math.max(0, first - 1);
    last = first + 1;
  }
  return { tokenStart: first, tokenEnd: last };
}

/** A finding of `entry`'s kind (its code, and its severity unless `init` says otherwise), anchored to ctx's tokens. */
export function makeDiagnostic(ctx: CheckContext, entry: DiagnosticKindInfo, init: DiagnosticInit): Diagnostic {
  const charStart = init.charStart ?? null;
  const charEnd = init.charEnd ?? charStart;
  const anchored = init.where === 'completion' && charStart !== null && charEnd !== null;
  const range = anchored ? tokenRange(ctx.tokens, charStart, charEnd) : { tokenStart: null, tokenEnd: null };
  const d: Diagnostic = {
    code: entry.code,
    kind: entry.kind,
    severity: init.severity ?? entry.severity,
    message: init.message,
    hint: init.hint,
    where: init.where,
    tokenStart: range.tokenStart,
    tokenEnd: range.tokenEnd,
    charStart,
    charEnd,
  };
  if (init.callIndex !== undefined) d.callIndex = init.callIndex;
  if (init.path !== undefined) d.path = init.path;
  if (init.detail !== undefined) d.detail = init.detail;
  return d;
}
