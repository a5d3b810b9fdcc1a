/**
 * The one pipeline the CLI, the extension and the server call: a loaded record in, an analysed record out.
 * bytes → record → tokens → parse events → diagnostics.
 */
import type { PendingFindings } from './diagnostics/check.ts';
import type { CheckContext, CheckedCall, EarlyRecord, Oversized } from './diagnostics/context.ts';
import type { Diagnostic } from './diagnostics/diagnostic.ts';
import { ASYNC_CHECKS, PROFILE_CHECKS, SYNC_CHECKS, type DiagnosticKind } from './diagnostics/registry.ts';
import { parseTokens, type ParseEvent } from './formats/parseTokens.ts';
import { findFormat } from './formats/registry.ts';
import { recordedSpecialTokens } from './formats/recordedSpecialTokens.ts';
import { modelNames, resolveFormat, type FormatBasis } from './formats/resolveFormat.ts';
import {
  approximateAfter,
  chooseTokenizer,
  type TokenizerChoice,
  type TokenizerFileReader,
  type TokenizerPaths,
} from './formats/tokenizerChoice.ts';
import type { GrammarEngine } from './guided/grammarEngine.ts';
import { completionQuotedInError } from './formats/quotedMarkup.ts';
import { apiIssuesCallIds } from './trace/apiCallIds.ts';
import type { ParseResult, ParserDelta } from './formats/toolCallFormat.ts';
import { ToolSchemas } from './schema/toolSchemas.ts';
import { ToolSets } from './trace/toolSets.ts';
import { renderPrompt } from './template/renderPrompt.ts';
import { tokenizeCompletion } from './tokens/index.ts';
import { coarseSplit } from './tokens/coarseSplitter.ts';
import { checkRecordedTokens } from './tokens/recordedTokenCheck.ts';
import type { TokenizedCompletion } from './tokens/token.ts';
import type { ChatTool, LineError, LoadedRecord, RecordSource } from './trace/record.ts';
import { responseMessage, type ResponseMessage } from './trace/responseMessage.ts';
import type { VllmGeneration, VllmGroupingChoice, VllmRun } from './formats/engineRun.ts';
import type { FormatEngineProfiles } from './formats/toolCallFormat.ts';
import { recordedGrouping } from './formats/recordedGrouping.ts';
import { startupMark } from './util/startupMarks.ts';
import { mapped } from './util/mapped.ts';

export interface AnalysisOptions {
  /** Force a tool-call format instead of detecting it (a registered name; unset or empty: per record). */
  format?: string;
  /** The completion starts inside `<think>` (the template opened it). */
  startInReasoning?: boolean;
  /** Recover `functions.name:0 {json}` written without special tokens. */
  recoverRawFallback?: boolean;
  /**
   * The user's chat template (e.g. their model folder's chat_template.jinja): requests recorded without a prompt
   * are rendered with it, and the template checks run on that rendering.
   */
  template?: { source: string; label: string };
  /**
   * Also run raw Kimi K2 completions through this vLLM generation's tool parser (a vLLM-behaviour profile):
   * `vllm` holds what it would have streamed, and every difference from the reference parse is a vllm-divergence.
   */
  vllmProfile?: VllmGeneration;
  /** Tokens per delta for the profile (default 1: each token one delta); `recorded`: the record's own grouping. */
  deltaTokens?: number | 'recorded';
  /** The user's tokenizer files (`toolscope.tokenizer`, `--tokenizer`): real ids for completions recorded without. */
  tokenizers?: TokenizerPaths;
  /** `false`: `analyzeWithGuided` skips the async checks, the guided-decoding what-if (`--no-guided`). */
  guided?: boolean;
  /**
   * The profile's server runs a reasoning parser (`--reasoning-parser kimi_k2`, the default); false models a server
   * started without one: the think text reaches the tool parser and the content.
   */
  vllmReasoningParser?: boolean;
  /**
   * Kinds the user expects and silences (`--ignore`, `toolscope.ignoreFindings`): their findings leave
   * `diagnostics` and are counted per kind in `ignored`, never dropped without a trace.
   */
  ignore?: readonly DiagnosticKind[];
  /**
   * Completions longer than this many million characters (about MB) are analysed without the per-token view, the
   * guided what-if and the vLLM profile (a record-too-large finding says so). Default DEFAULT_MAX_COMPLETION_MB.
   */
  maxCompletionMB?: number;
  /**
   * `false`: no per-token timeline (`events` stays empty): the completion is parsed in one piece, which gives the
   * same parse (split invariance) without a parser state and a delta kept per token. For callers that show no
   * timeline (`toolscope analyze`).
   */
  timeline?: boolean;
}

/**
 * What the analysis is handed by its composition root: the parts that do I/O, which the domain may not
 * (src/io/nodeServices.ts builds Node's). Options say what the user chose; services are what the platform provides.
 */
export interface AnalysisServices {
  /** Reads the user's tokenizer files (`tokenizers`); without it a path that is set becomes a note on the tokens. */
  readTokenizer?: TokenizerFileReader;
  /** Runs the guided-decoding what-if (the async checks); without it there is no what-if. */
  grammarEngine?: GrammarEngine;
}

/** The default size limit of a completion, in million characters: a few hundred MB of memory at most. */
export const DEFAULT_MAX_COMPLETION_MB = 4;

/** What a completion above the limit goes without. */
const SKIPPED_WHEN_OVERSIZED = ['the per-token view', 'the recorded tokens', 'the guided-decoding what-if', 'the vLLM profile'];

/** The prompt behind a record: as recorded, or rendered from its request with a template. */
export type PromptInfo =
  | { text: string; origin: 'recorded' }
  | { text: string; origin: 'rendered'; template: string }
  | { text: null; origin: 'rendered'; template: string; error: string };

export interface AnalyzedCall {
  id: string;
  name: string;
  arguments: string;
}

export interface AnalyzedRecord {
  id: string;
  line: number;
  lastLine: number;
  source: RecordSource;
  format: string;
  /** On what evidence the format was chosen (`default`: none, the default format was assumed). */
  formatBasis: FormatBasis;
  /** That evidence in words, for the UI. */
  formatEvidence: string;
  /** From the reference parse of the raw completion when there is one, else from the recorded response. */
  content: string | null;
  reasoning: string | null;
  calls: AnalyzedCall[];
  diagnostics: Diagnostic[];
  /** Findings of the kinds the options ignore, counted per kind (empty when nothing was ignored). */
  ignored: Record<string, number>;
  /** The request failed (HTTP error, K2VV `status: failed`): the error body as recorded. */
  error: string | null;
  /** `completion` is tool-call markup quoted in `error`, not a recorded raw completion. */
  completionQuotedInError: boolean;
  /** Which checks could not run, as the importer said (`meta.unchecked`: an export that kept parsed messages only). */
  unchecked: string | null;
  completion: TokenizedCompletion | null;
  parse: ParseResult | null;
  events: ParseEvent[];
  finalEmitted: ParserDelta | null;
  response: ResponseMessage | null;
  /** The recorded prompt, or the request rendered with the user's template; null when neither applies. */
  prompt: PromptInfo | null;
  /** With `vllmProfile`: what that vLLM generation would have sent for the raw Kimi K2 completion; else null. */
  vllm?: VllmRun | null;
  /** The completion is above the size limit (its tokens are a coarse split); null otherwise. */
  oversized: Oversized | null;
}

/** A record analysed, or why it could not be (an internal error, reported on its line). */
export type AnalysisOutcome = { kind: 'record'; analysed: AnalyzedRecord } | { kind: 'error'; error: LineError };

/** A record analysed without the guided what-if, and the what-if under way (`Analyzer.analyzeInSteps`). */
export interface SteppedAnalysis {
  analysed: AnalyzedRecord;
  /** The same record with the what-if's findings, once the grammar engine answers; null: no what-if for it. */
  guided: Promise<AnalyzedRecord> | null;
}

/** `AnalysisOutcome` in two steps (`Analyzer.analyzeGuardedInSteps`). */
export type SteppedOutcome = ({ kind: 'record' } & SteppedAnalysis) | { kind: 'error'; error: LineError };

/** An unexpected exception while analysing a record, as the error reported on its line. */
function internalError(loaded: LoadedRecord, err: unknown): LineError {
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const message = `line ${loaded.line}: record "${loaded.record.id}" could not be analysed (${reason}); this is a Toolscope bug, please report it with the record`;
  return { line: loaded.line, message };
}

export class Analyzer {
  /** Shared across records so each tool schema compiles once per session. */
  private readonly schemas = new ToolSchemas();
  private readonly toolSets = new ToolSets();

  constructor(
    private readonly options: AnalysisOptions = {},
    private readonly services: AnalysisServices = {},
  ) {}

  /**
   * `analyze`, plus the async checks (the guided-decoding what-if: guided-would-block / guided-accepts), whose
   * findings come last: asynchronous, as the what-if compiles the request's grammar with web-xgrammar (cached per
   * tool set).
   */
  async analyzeWithGuided(loaded: LoadedRecord): Promise<AnalyzedRecord> {
    const { analysed, guided } = this.analyzeInSteps(loaded);
    return guided ?? analysed;
  }

  /**
   * `analyzeWithGuided` in two steps, for a view that shows a record before the what-if answers: the record
   * without the async checks' findings now, and `guided`, a copy of it with them once they answer (null: no async
   * check for this record). `guided` rejects where `analyzeWithGuided` would throw.
   */
  analyzeInSteps(loaded: LoadedRecord): SteppedAnalysis {
    if (this.options.guided === false) return { analysed: this.analyze(loaded), guided: null };
    // Async checks start as soon as the format is known: the what-if compiles and matches on the grammar engine's
    // thread while this one tokenizes, parses and checks the record.
    const pending: PendingFindings[] = [];
    const { analysed, ctx } = this.analyzeRecord(loaded, (early) => {
      for (const check of ASYNC_CHECKS) {
        const findings = check.run(early);
        if (findings) pending.push(findings);
      }
    });
    if (!pending.length) return { analysed, guided: null };
    return { analysed, guided: this.withAsyncFindings(analysed, ctx, pending) };
  }

  private async withAsyncFindings(analysed: AnalyzedRecord, ctx: CheckContext, pending: PendingFindings[]): Promise<AnalyzedRecord> {
    let diagnostics = analysed.diagnostics;
    for (const findings of pending) {
      const extra = await findings(ctx, diagnostics);
      if (extra.length) diagnostics = [...diagnostics, ...extra];
    }
    if (diagnostics === analysed.diagnostics) return analysed;
    // A copy: the record without them may already be on screen.
    const complete = { ...analysed, diagnostics, ignored: { ...analysed.ignored } };
    this.setIgnored(complete);
    return complete;
  }

  /**
   * `analyze` (with the what-if unless `guided` is false) that cannot fail: an unexpected exception while analysing
   * one record becomes an error naming its line, so the rest of the file (and later files) are still analysed.
   */
  async analyzeGuarded(loaded: LoadedRecord, guided = true): Promise<AnalysisOutcome> {
    try {
      if (!guided) return { kind: 'record', analysed: this.analyze(loaded) };
      try {
        return { kind: 'record', analysed: await this.analyzeWithGuided(loaded) };
      } catch {
        // The what-if failed on this record: the record is kept with everything else it has. (The grammar
        // engine's own failures are findings of their own: guided-unavailable.)
        return { kind: 'record', analysed: this.analyze(loaded) };
      }
    } catch (err) {
      return { kind: 'error', error: internalError(loaded, err) };
    }
  }

  /** `analyzeGuarded` in two steps (`analyzeInSteps`); `guided` never rejects: a failed what-if leaves the record as it is. */
  analyzeGuardedInSteps(loaded: LoadedRecord, withWhatIf = true): SteppedOutcome {
    try {
      if (!withWhatIf) return { kind: 'record', analysed: this.analyze(loaded), guided: null };
      const { analysed, guided } = this.analyzeInSteps(loaded);
      return { kind: 'record', analysed, guided: guided && guided.catch(() => analysed) };
    } catch (err) {
      return { kind: 'error', error: internalError(loaded, err) };
    }
  }

  analyze(loaded: LoadedRecord): AnalyzedRecord {
    return this.analyzeRecord(loaded, null).analysed;
  }

  /**
   * `analyze`, with the context its checks saw; `startAsync` is told what is known of the record before its tokens
   * are split and parsed (not for a completion above the size limit).
   */
  private analyzeRecord(
    loaded: LoadedRecord,
    startAsync: ((early: EarlyRecord) => void) | null,
  ): { analysed: AnalyzedRecord; ctx: CheckContext } {
    // Markup quoted in an error message is the completion the client never got as calls (quotedMarkup.ts).
    const quoted = completionQuotedInError(loaded.record);
    const record = quoted ? { ...loaded.record, completion: quoted } : loaded.record;
    // The tools of an earlier record when they are equal: what is kept by tool set (the what-if's key, compiled
    // schemas) is found without writing them out again.
    const requestTools = this.toolSets.same(record.request?.tools);
    const response = record.response ? responseMessage(record.response) : null;
    // The format: forced by the caller, else the one the record names, else detected from its markup, parser or model.
    const resolved = resolveFormat(record, response, this.options.format);
    const format = resolved.format;
    const checkedTokens = checkRecordedTokens(record.completion?.tokens);
    const oversized = this.oversized(record.completion?.text);
    if (startAsync && !oversized)
      startAsync({
        format,
        completionText: typeof record.completion?.text === 'string' ? record.completion.text : null,
        request: record.request && { tools: requestTools, tool_choice: record.request.tool_choice },
        finishReason: response?.finishReason ?? loaded.record.completion?.finish_reason ?? null,
        startInReasoning: this.options.startInReasoning ?? false,
        grammarEngine: this.services.grammarEngine ?? null,
      });
    // Without usable recorded tokens: the model's own tokenizer when there is one, else the format's splitter.
    let choice: TokenizerChoice | null = null;
    const choose = () =>
      (choice = chooseTokenizer(format, modelNames(record), this.options.tokenizers, this.services.readTokenizer)).tokenizer;
    let completion: TokenizedCompletion | null = null;
    if (record.completion && oversized) {
      completion = {
        text: record.completion.text,
        tokens: coarseSplit(record.completion.text, format.markers),
        origin: 'splitter',
        source: 'approximate',
        tokenizer: 'coarse split (size limit)',
      };
    } else if (record.completion) {
      // What tokenizeCompletion reads (a spread of the record's own object cost ~1 % of a list worker's time).
      const input = { text: record.completion.text, tokens: checkedTokens.tokens };
      try {
        completion = tokenizeCompletion(input, choose, recordedSpecialTokens(format));
      } catch (err) {
        // The model's tokenizer failed on this text (a user's pattern ran past its budget): approximate tokens, saying why.
        const failed = choice as TokenizerChoice | null;
        if (failed === null || failed.tokenizer.approximate) throw err;
        choice = approximateAfter(format, err);
        completion = tokenizeCompletion(input, choice.tokenizer, recordedSpecialTokens(format));
      }
    }
    const note = (choice as TokenizerChoice | null)?.note;
    if (completion && completion.source === 'approximate' && note) completion.tokenizerNote = note;
    let parse: ParseResult | null = null;
    let events: ParseEvent[] = [];
    let finalEmitted: ParserDelta | null = null;
    if (completion) {
      const run = parseTokens(
        format,
        completion.tokens,
        {
          startInReasoning: this.options.startInReasoning,
          recoverRawFallback: this.options.recoverRawFallback,
          tools: record.request?.tools,
        },
        this.options.timeline !== false,
      );
      parse = run.result;
      events = run.events;
      finalEmitted = run.finalEmitted;
    }
    startupMark('parsed');
    const tools = toolMap(requestTools);
    const calls = checkedCalls(parse, response);
    const prompt = promptOf(record, format.name, this.options.template);
    const ctx: CheckContext = {
      record,
      format,
      // An assumed format's id convention is not evidence against ids the record never claimed to follow, and an
      // API that issues its own call ids (Anthropic's toolu_…, Responses' call_…) is not the model writing them.
      callIds: resolved.basis === 'default' || apiIssuesCallIds(record) ? null : (format.callIds ?? null),
      completionText: completion?.text ?? null,
      tokens: completion?.tokens ?? [],
      tokenSource: completion?.source ?? null,
      parse,
      response,
      tools,
      schemas: this.schemas,
      calls,
      finishReason: response?.finishReason ?? record.completion?.finish_reason ?? null,
      prompt: prompt?.text ?? null,
      tokenProblem: checkedTokens.problem,
      tokenMismatch: completion?.warning ?? null,
      oversized,
    };
    const diagnostics = SYNC_CHECKS.flatMap((check) => check.run(ctx));
    startupMark('checked');
    let vllm: VllmRun | null = null;
    if (this.options.vllmProfile && completion && parse && format.engineProfiles && !oversized) {
      vllm = this.runVllm(format.engineProfiles, record, completion);
      const profiled = { ...ctx, completionText: completion.text, parse, engineRun: vllm };
      for (const check of PROFILE_CHECKS) diagnostics.push(...check.run(profiled));
    }
    const analysed: AnalyzedRecord = {
      id: record.id,
      line: loaded.line,
      lastLine: loaded.lastLine,
      source: loaded.source,
      format: format.name,
      formatBasis: resolved.basis,
      formatEvidence: resolved.evidence,
      content: parse ? parse.content : (response?.content ?? null),
      reasoning: parse ? parse.reasoning : (response?.reasoning ?? null),
      calls: parse
        ? mapped(parse.calls, (c) => ({ id: c.id, name: c.name, arguments: c.arguments }))
        : mapped(response?.calls ?? [], (c) => ({ id: c.id ?? '', name: c.name ?? '', arguments: c.arguments })),
      diagnostics,
      error: record.error ?? null,
      completionQuotedInError: quoted !== null,
      unchecked: typeof record.meta?.unchecked === 'string' ? record.meta.unchecked : null,
      completion,
      parse,
      events,
      finalEmitted,
      response,
      prompt,
      ignored: {},
      ...(this.options.vllmProfile ? { vllm } : {}),
      oversized,
    };
    this.setIgnored(analysed);
    return { analysed, ctx };
  }

  /** Moves the findings of ignored kinds out of `diagnostics`, counting them. */
  private setIgnored(analysed: AnalyzedRecord): void {
    const ignore = this.options.ignore;
    if (!ignore?.length) return;
    const ignored = new Set<string>(ignore);
    const kept: Diagnostic[] = [];
    for (const d of analysed.diagnostics) {
      if (ignored.has(d.kind)) analysed.ignored[d.kind] = (analysed.ignored[d.kind] ?? 0) + 1;
      else kept.push(d);
    }
    analysed.diagnostics = kept;
  }

  /** The size-limit note for a completion text above the limit, else null. */
  private oversized(text: string | undefined): Oversized | null {
    const limit = Math.round((this.options.maxCompletionMB ?? DEFAULT_MAX_COMPLETION_MB) * 1e6);
    if (typeof text !== 'string' || text.length <= limit) return null;
    return {
      chars: text.length,
      limit,
      skipped: SKIPPED_WHEN_OVERSIZED.filter((s) => s !== 'the vLLM profile' || this.options.vllmProfile),
    };
  }

  /** The raw completion through the chosen vLLM generation, grouped into deltas as asked. */
  private runVllm(profiles: FormatEngineProfiles, record: LoadedRecord['record'], completion: TokenizedCompletion): VllmRun {
    const { deltaTokens } = this.options;
    const grouping: VllmGroupingChoice = deltaTokens === 'recorded' ? { kind: 'recorded' } : { kind: 'tokens', perDelta: deltaTokens ?? 1 };
    return profiles.run({
      generation: this.options.vllmProfile as VllmGeneration,
      text: completion.text,
      tokens: completion.tokens,
      grouping,
      recorded: recordedGrouping(record, completion.text),
      startInReasoning: this.options.startInReasoning,
      reasoningParser: this.options.vllmReasoningParser,
    });
  }
}

/** Requests without a recorded prompt are rendered with the user's template, when one is given and the format takes one. */
function promptOf(record: LoadedRecord['record'], format: string, template: AnalysisOptions['template']): PromptInfo | null {
  if (typeof record.prompt === 'string') return { text: record.prompt, origin: 'recorded' };
  if (!template || !findFormat(format)?.chatTemplate?.userTemplates || !Array.isArray(record.request?.messages)) return null;
  try {
    return { text: renderPrompt(record.request, template.source), origin: 'rendered', template: template.label };
  } catch (err) {
    return { text: null, origin: 'rendered', template: template.label, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Each tool set's map, made once: the records of an agent's trace share one tool set (toolSets.ts). */
const toolMaps = new WeakMap<ChatTool[], ReadonlyMap<string, ChatTool>>();

/** The first tool of each name, as K2-Vendor-Verifier resolves them; null when the request offers none. */
function toolMap(tools: ChatTool[] | undefined): ReadonlyMap<string, ChatTool> | null {
  if (!Array.isArray(tools)) return null;
  const kept = toolMaps.get(tools);
  if (kept) return kept;
  const map = new Map<string, ChatTool>();
  for (const t of tools) {
    const name = t?.function?.name;
    if (typeof name === 'string' && !map.has(name)) map.set(name, t);
  }
  toolMaps.set(tools, map);
  return map;
}

/** The calls the checks read: mapped, not map (util/mapped.ts). */
function checkedCalls(parse: ParseResult | null, response: ResponseMessage | null): CheckedCall[] {
  if (parse) {
    return mapped(parse.calls, (c) => ({
      index: c.index,
      // Formats whose model writes no ids (Hermes, Harmony…) leave it empty: no id, not an empty one.
      id: c.id || null,
      name: c.name,
      arguments: c.arguments,
      where: 'completion',
      argumentsStart: c.argumentsSpan?.start ?? null,
      argumentsEnd: c.argumentsSpan?.end ?? null,
      start: c.span.start,
      end: c.span.end,
    }));
  }
  return mapped(response?.calls ?? [], (c) => ({
    index: c.index,
    id: c.id,
    name: c.name,
    arguments: c.arguments,
    where: 'response',
    argumentsStart: null,
    argumentsEnd: null,
    start: null,
    end: null,
  }));
}
