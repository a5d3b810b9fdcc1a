/**
 * The host side of the trace editor without VS Code: an indexed trace file, its record list analysed in the
 * background in batches, record views built on demand, and following a file that grows.
 */
import { guidedEngine } from '../../core/guided/guidedEngine.ts';
import { Analyzer, type AnalysisOptions } from '../../core/analysis.ts';
import { DIAGNOSTIC_KINDS } from '../../core/diagnostics/registry.ts';
import { TraceIndex } from '../../core/trace/jsonlIndex.ts';
import type { LoadedRecord } from '../../core/trace/record.ts';
import type {
  EvalPanelView,
  LineErrorView,
  RecordSummary,
  RecordView,
  TraceInfo,
  VllmGroupingChoice,
  VllmView,
} from '../../shared/protocol.ts';
import { recordSummary, recordView } from './recordView.ts';
import { evalPanelFor } from '../eval/evalPanel.ts';
import { comparisonFor } from './comparison.ts';
import { vllmView } from './vllmView.ts';

export interface SummaryBatch {
  summaries: RecordSummary[];
  lineErrors: LineErrorView[];
}

export class TraceSession {
  private analyzer: Analyzer;
  private options: AnalysisOptions;
  private readonly summaries: RecordSummary[] = [];
  private readonly lineErrors: LineErrorView[] = [];
  /** Entries before this one are in `summaries`. */
  private analysedEntries = 0;
  private readonly views = new Map<string, RecordView>();
  /** K2VV figures, when the file is a K2VV results file (computed on open and when it changes). */
  private evalPanel: EvalPanelView | null = null;

  private constructor(
    private readonly index: TraceIndex,
    readonly fileName: string,
    options: AnalysisOptions,
    private readonly path: string,
  ) {
    this.options = { ...options };
    this.analyzer = new Analyzer(this.options);
  }

  static async open(path: string, fileName: string, options: AnalysisOptions = {}): Promise<TraceSession> {
    // xgrammar's worker loads its WASM module while the file is indexed.
    if (options.guided !== false) guidedEngine().warmUp();
    const session = new TraceSession(await TraceIndex.open(path), fileName, options, path);
    session.evalPanel = await evalPanelFor(path);
    return session;
  }

  info(host: TraceInfo['host']): TraceInfo {
    return {
      fileName: this.fileName,
      entries: this.index.count,
      analysing: this.analysedEntries < this.index.count,
      host,
      format: this.options.format || null,
      eval: this.evalPanel,
      diagnosticKinds: DIAGNOSTIC_KINDS,
    };
  }

  /**
   * Analyses with other options from now on (the user chose another format): the list starts over and no cached
   * view survives. False, and nothing changes, when the options are the same. Not while a batch is running.
   */
  setOptions(options: AnalysisOptions): boolean {
    // Options not given stay as they were (a new format keeps the chat template).
    const next = { ...this.options, ...options };
    const same =
      (['format', 'startInReasoning', 'recoverRawFallback', 'vllmProfile', 'deltaTokens'] as const).every(
        (k) => (next[k] || undefined) === (this.options[k] || undefined),
      ) &&
      // Unset means on: only `false` turns the profile's reasoning parser off.
      (next.vllmReasoningParser !== false) === (this.options.vllmReasoningParser !== false) &&
      [...(next.ignore ?? [])].sort().join(',') === [...(this.options.ignore ?? [])].sort().join(',') &&
      next.template?.source === this.options.template?.source &&
      JSON.stringify(next.tokenizers ?? null) === JSON.stringify(this.options.tokenizers ?? null);
    if (same) return false;
    this.options = next;
    this.analyzer = new Analyzer(next);
    this.summaries.length = 0;
    this.lineErrors.length = 0;
    this.analysedEntries = 0;
    this.views.clear();
    return true;
  }

  snapshot(): SummaryBatch {
    return { summaries: [...this.summaries], lineErrors: [...this.lineErrors] };
  }

  /** Analyses the next entries for the list, until about `budgetMs` has passed; null when all are done. */
  async nextBatch(budgetMs = 50): Promise<SummaryBatch | null> {
    if (this.analysedEntries >= this.index.count) return null;
    const started = Date.now();
    const batch: SummaryBatch = { summaries: [], lineErrors: [] };
    while (this.analysedEntries < this.index.count && Date.now() - started < budgetMs) {
      const entry = this.analysedEntries;
      const { records, errors } = await this.index.read(entry);
      for (const [k, loaded] of records.entries()) {
        // With the guided what-if, so the list's badges and filters agree with the record view.
        const outcome = await this.analyzer.analyzeGuarded(loaded);
        if (outcome.kind === 'error') batch.lineErrors.push(outcome.error);
        else batch.summaries.push(recordSummary(`${entry}:${k}`, entry, outcome.analysed, loaded.record));
      }
      batch.lineErrors.push(...errors.map((e) => ({ line: e.line, message: e.message })));
      this.analysedEntries++;
    }
    this.summaries.push(...batch.summaries);
    this.lineErrors.push(...batch.lineErrors);
    return batch;
  }

  /** Analyses everything (the standalone report). */
  async analyseAll(): Promise<SummaryBatch> {
    while (await this.nextBatch(1000));
    return this.snapshot();
  }

  async record(key: string): Promise<{ view: RecordView; loaded: LoadedRecord }> {
    const m = /^(\d+):(\d+)$/u.exec(key);
    if (!m) throw new Error(`bad record key "${key}"`);
    const entry = Number(m[1]);
    const k = Number(m[2]);
    if (entry >= this.index.count) throw new Error(`record ${key} is not in the file (it has ${this.index.count} entries)`);
    const { records, errors } = await this.index.read(entry);
    const loaded = records[k];
    if (!loaded) throw new Error(errors[0] ? `line ${errors[0].line}: ${errors[0].message}` : `record ${key} is not in the file`);
    const cached = this.views.get(key);
    if (cached) return { view: cached, loaded };
    const outcome = await this.analyzer.analyzeGuarded(loaded);
    if (outcome.kind === 'error') throw new Error(outcome.error.message);
    const view = recordView(key, outcome.analysed, loaded.record);
    view.comparison = await comparisonFor(this.path, loaded, this.analyzer);
    // Keep a few views: stepping back and forth between records should not re-analyse.
    this.views.set(key, view);
    if (this.views.size > 8) this.views.delete(this.views.keys().next().value as string);
    return { view, loaded };
  }

  /**
   * The record's raw completion through the chosen vLLM profile again, grouped into deltas another way (the
   * editor's grouping control). The list and the record view keep the grouping the options name.
   */
  async vllmRun(key: string, grouping: VllmGroupingChoice): Promise<VllmView> {
    if (!this.options.vllmProfile) throw new Error('no vLLM profile is chosen (the toolscope.vllmProfile setting)');
    const { loaded } = await this.record(key);
    const deltaTokens = grouping.kind === 'recorded' ? 'recorded' : grouping.perDelta;
    const view = vllmView(new Analyzer({ ...this.options, deltaTokens }).analyze(loaded));
    if (!view) throw new Error('this record has no raw Kimi K2 completion to run through a vLLM profile');
    return view;
  }

  /**
   * Picks up appended records. `reset` when the file was replaced or shrank: the list starts over.
   * The last entry may have grown (an SSE stream still being written), so it is analysed again.
   */
  async refresh(): Promise<{ reset: boolean }> {
    const r = await this.index.refresh();
    this.views.clear();
    if (this.evalPanel || r.reset) this.evalPanel = await evalPanelFor(this.path);
    if (r.reset) {
      this.summaries.length = 0;
      this.lineErrors.length = 0;
      this.analysedEntries = 0;
      return { reset: true };
    }
    if (r.firstChanged < this.analysedEntries) {
      const cut = r.firstChanged;
      let keep = 0;
      while (keep < this.summaries.length && (this.summaries[keep] as RecordSummary).entry < cut) keep++;
      this.summaries.length = keep;
      const firstLine = cut < this.index.count ? this.index.line(cut) : Number.MAX_SAFE_INTEGER;
      const kept = this.lineErrors.filter((e) => e.line < firstLine);
      this.lineErrors.length = 0;
      this.lineErrors.push(...kept);
      this.analysedEntries = cut;
    }
    return { reset: false };
  }

  close(): Promise<void> {
    return this.index.close();
  }
}
