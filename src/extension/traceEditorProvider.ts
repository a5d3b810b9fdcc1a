/**
 * The Toolscope trace editor: a read-only custom editor for trace files (`.jsonl`, `.json`, `.ndjson`, `.sse`, `.log`, `.txt`). The host indexes and analyses
 * (src/core); the webview renders view models it asks for over the typed protocol (src/shared/protocol.ts).
 * The file is never written; when it grows, new records are analysed and pushed to the open views. Records are read
 * in the format the `toolscope.format` setting names (`auto`: per record); when it changes, open traces start over.
 * So they do when `toolscope.vllmProfile` changes: with a profile, records also show what that vLLM would have sent.
 */
import * as vscode from 'vscode';
import { basename, join } from 'node:path';
import { readFile } from 'node:fs/promises';
import {
  HostRpc,
  type FollowUp,
  type GuidedFindings,
  type HostEvent,
  type HostReply,
  type InitialPage,
  type LineErrorView,
  type RecordSummary,
  type WebviewRequest,
} from '../shared/protocol.ts';
import { makeNonce, webviewFailureHtml, webviewPageHtml } from '../host/view/pageHtml.ts';
import { TraceSession } from '../host/view/traceSession.ts';
import { FORMAT_SETTING, formatSettingFor } from './formatSetting.ts';
import { TOKENIZER_SETTING, tokenizerSettingFor } from './tokenizerSetting.ts';
import { clearLocalTokenizers } from '../io/tokens/localTokenizer.ts';
import { IGNORE_SETTING, ignoreSettingFor } from './ignoreSetting.ts';
import {
  VLLM_PROFILE_SETTING,
  VLLM_REASONING_PARSER_SETTING,
  vllmProfileSettingFor,
  vllmReasoningParserSettingFor,
} from './vllmProfileSetting.ts';
import { analysisSettingsFor } from './analysisSettings.ts';
import type { AnalysisOptions } from '../core/analysis.ts';
import { rawRecordUri, registerRawRecordDocuments, setRawContent } from './rawRecordDocuments.ts';
import { listWorkers } from '../host/view/listWorkers.ts';
import { configureEditorThreads } from '../host/view/editorThreads.ts';
import { openMark } from './openMarks.ts';
import { afterMessagesWritten } from './afterMessagesWritten.ts';
import { traceOpened } from './firstTraceOpen.ts';
import { packEnvelope } from '../shared/packedEnvelope.ts';
import { guidedEngine } from '../io/guided/guidedEnginePool.ts';

export const TRACE_VIEW_TYPE = 'toolscope.trace';

/** How long the list's analysis waits for the page to ask for its first record after the `ready` reply, ms. */
const FIRST_RECORD_WAIT_MS = 300;

/**
 * The list's rows and what-if findings go to the pages at most once a frame (60 Hz), gathered in one message: each
 * message costs the page's main thread (and a browser workbench's, which relays it) a task, and several of them in
 * one frame made its frames late while the user scrolled.
 */
const FRAME_MS = 16;
/**
 * Rows in one message at most: the page decodes a message in one task. The list's analysis waits while this many
 * are still to go. Sent as bytes (packedEnvelope.ts), 3,000 of the 200 MB trace's rows cost a browser workbench's
 * main thread about half what 1,000 cost as objects (relayed through two frames in headless Chromium, load 14: 16
 * against 32 ms median), and a moving list then gets three times the rows a second (MOVING_MS): at 1,000, a list
 * scrolled while the analysis ran got its last rows 1–3 s after it stopped (the workbench e2e).
 */
const ROWS_PER_MESSAGE = 3000;
/**
 * While a page's list moves (the user scrolls it), rows and findings go at most this often: each message costs the
 * page's main thread a task, and a browser workbench's (the same thread, which relays it) ~3–7 ms, so a message per
 * frame or two made most of a fling's frames late. Rows for the rows in view are not what a moving list needs.
 */
const MOVING_MS = 1000;
/**
 * While the analysis runs and the list rests, rows and findings go at most this often (a full message's worth of rows
 * goes a frame after the last message all the same, so the list's rate is not capped): in a browser workbench every
 * message is a frame of the whole workbench's renderer (the page is a same-site frame inside it: its style, layout,
 * paint and layerize, then the compositor's, the GPU process's and the browser's share), and the list's worker, which
 * the 200 MB trace's what-ifs wait for, shares the machine's cores with it. (The workbench e2e's 200 MB trace: ~65
 * messages instead of ~300, Chromium's CPU over the analysis 8.7 s instead of 10.6 s.)
 */
const REST_MS = 250;
/**
 * The first rows streamed go a frame apart all the same: a small trace's whole list (the sample's 29 rows) and a big
 * one's first screens fill at once, as the user looks at them; a quarter second a message showed them in steps.
 */
const REST_AFTER_ROWS = 200;
/**
 * A list said to move that says nothing more is taken to rest after this long (a page that went away); a page says
 * it again every 2 s while its list moves (webview/recordList.ts).
 */
const MOVING_LIMIT_MS = 5000;

/** Rows a page's HTML carries at most (the `ready` reply brings the rest): a few screens of the list. */
const INITIAL_ROWS = 200;
/** A first record whose view is longer than this (JSON characters) is asked for by the page, not put in its HTML. */
const INITIAL_RECORD_CHARS = 1_000_000;

/**
 * The grammar engines are held while a trace's first record is painted, at most this long, ms (a page that never
 * says it painted: an empty trace, a page closed before): see openCustomDocument.
 */
const FIRST_PAINT_HOLD_MS = 3000;

/** Every open trace editor's panel and its RPC: the stepping commands act on the active one. */
const openViews = new Map<vscode.WebviewPanel, HostRpc>();

/** Sends an event to the active trace editor; false when no trace editor is active. */
export function postToActiveTrace(event: HostEvent): boolean {
  for (const [panel, rpc] of openViews) {
    if (!panel.active) continue;
    rpc.event(event);
    return true;
  }
  return false;
}

/** The record each trace editor last showed, by document URI: what Replay Record offers first. */
const shownRecords = new Map<string, string>();

/** The id of the record the trace editor of `uri` shows (the last one it asked for), if any. */
export function shownRecordId(uri: vscode.Uri): string | undefined {
  return shownRecords.get(uri.toString());
}

/** Reveals waiting for their trace editor to be ready, by document URI. */
const pendingReveals = new Map<string, Extract<HostEvent, { type: 'reveal' }>>();
/** The RPC of every ready trace editor, by document URI. */
const readyViews = new Map<string, Set<HostRpc>>();

/**
 * Selects a record (by id) in the trace editor of `uri` and shows a tab of it: now when that editor is ready,
 * else as soon as it is (the replay command opens the file and reveals the replay it just wrote).
 */
export function revealInTrace(uri: vscode.Uri, recordId: string, tab: 'timeline' | 'compare'): void {
  const event = { type: 'reveal' as const, recordId, tab };
  const views = readyViews.get(uri.toString());
  if (views?.size) for (const rpc of views) rpc.event(event);
  else pendingReveals.set(uri.toString(), event);
}

class TraceDocument implements vscode.CustomDocument {
  private readonly views = new Set<HostRpc>();
  private analysing: Promise<void> | null = null;
  /** Set while the background analysis is asked to stop (the format changed). */
  private stopping = false;
  /** File changes and format changes, one at a time. */
  private work: Promise<void> = Promise.resolve();
  private disposed = false;
  /** The first rows went out (for the open marks). */
  private rowsSent = false;
  /** The list's first batch, analysed for the first `ready` reply (firstRows). */
  private firstBatch: Promise<void> | null = null;
  /** The first batch's what-if findings, posted when the background analysis starts. */
  private firstGuided: GuidedFindings[] = [];
  /** The background analysis waits for the first record to be sent, at most this long (firstRows). */
  private held: ReturnType<typeof setTimeout> | undefined;
  /** Rows, errors and findings not sent to the pages yet (FRAME_MS); `info`: the trace's state changed. */
  private outbox = { summaries: [] as RecordSummary[], lineErrors: [] as LineErrorView[], findings: [] as GuidedFindings[], info: false };
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Rows sent to the pages as events so far (REST_AFTER_ROWS). */
  private rowsStreamed = 0;
  /** When flushTimer fires (performance.now()). */
  private flushDue = Infinity;
  private lastFlush = -Infinity;
  /** Woken when the outbox was sent (the analysis waits while it is full). */
  private flushed: (() => void)[] = [];
  /** A page's list moves (listMoving), until it rests (listResting) or MOVING_LIMIT_MS pass: the outbox waits longer. */
  private moving: ReturnType<typeof setTimeout> | undefined;
  /** The analysis ended: what it left in the outbox goes a frame apart, the list moving or not (sendRest). */
  private ending = false;

  constructor(
    readonly uri: vscode.Uri,
    readonly session: TraceSession,
    private readonly onDispose: () => void,
    /** A page of it painted its first record (or it closed): the grammar engines may start (openCustomDocument). */
    readonly painted: () => void = () => undefined,
  ) {}

  /**
   * The list as it is now, for a page that follows it from now on (its events go to this page too). What the outbox
   * held goes first to the pages before it: this one has those rows in the list returned, and would get them twice.
   */
  attach(rpc: HostRpc): { summaries: RecordSummary[]; lineErrors: LineErrorView[] } {
    while (this.outbox.summaries.length || this.outbox.lineErrors.length || this.outbox.findings.length || this.outbox.info) this.flush();
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const list = this.session.snapshot();
    this.views.add(rpc);
    return list;
  }

  detach(rpc: HostRpc): void {
    this.views.delete(rpc);
  }

  /**
   * Analyses the rest of the list in batches, pushing each batch to every open view, then the guided findings of
   * rows sent before their what-if answered.
   */
  analyseInBackground(): Promise<void> {
    clearTimeout(this.held);
    this.held = undefined;
    this.analysing ??= (async () => {
      try {
        await this.firstBatch;
        this.send([], [], this.firstGuided.splice(0));
        for (;;) {
          if (this.disposed || this.stopping) return;
          const batch = await this.session.nextBatch(40);
          if (!batch) break;
          if (batch.summaries.length && !this.rowsSent) {
            this.rowsSent = true;
            openMark('first-rows', this.uri.fsPath);
          }
          this.send(batch.summaries, batch.lineErrors, batch.guided, true);
          // Yield so requests for records are answered between batches; wait while a message's worth of rows is still to go.
          // (Not while a list moves: its rows wait in the outbox, the what-ifs go on.)
          if (this.outbox.summaries.length >= ROWS_PER_MESSAGE && this.moving === undefined)
            await new Promise<void>((r) => this.flushed.push(r));
          else await new Promise((r) => setTimeout(r, 0));
        }
        for (let findings; (findings = await this.session.nextGuidedFindings());) {
          if (this.disposed || this.stopping) return;
          this.send([], [], findings);
        }
        // The end of the analysis, after everything before it.
        this.send([], [], [], true);
        this.sendRest();
        openMark('analysed', this.uri.fsPath, { held: this.outbox.summaries.length, moving: this.moving !== undefined });
      } finally {
        this.analysing = null;
      }
    })();
    return this.analysing;
  }

  /**
   * The first page's rows, before the `ready` reply: the list's first batch when nothing is listed yet, so the reply
   * carries rows and the page asks for its record at once. The rest of the list waits for that record to be sent
   * (at most FIRST_RECORD_WAIT_MS): sent as an event after an empty reply, the rows cost a message more, and the
   * page's `getRecord` then queued behind the next batches on this thread (300 ms and more of the open → first paint
   * path on the sample).
   */
  async firstRows(hold = true): Promise<void> {
    this.firstBatch ??=
      this.analysing || this.rowsSent
        ? Promise.resolve()
        : (async () => {
            const batch = await this.session.nextBatch(40);
            if (!batch) return;
            if (batch.summaries.length && !this.rowsSent) {
              this.rowsSent = true;
              openMark('first-rows', this.uri.fsPath);
            }
            this.firstGuided.push(...batch.guided);
          })();
    await this.firstBatch;
    // (Not for a page being written: the list waits for it to be ready, its record given; see initialPage.)
    if (hold && !this.analysing) {
      clearTimeout(this.held);
      this.held = setTimeout(() => void this.analyseInBackground(), FIRST_RECORD_WAIT_MS);
    }
  }

  /** A page's list started moving: messages wait up to MOVING_MS until it rests. */
  listMoving(): void {
    clearTimeout(this.moving);
    this.moving = setTimeout(() => this.listResting(), MOVING_LIMIT_MS);
  }

  /** The list rests again (the page said which rows are in view): what waited goes now. */
  listResting(): void {
    if (this.moving === undefined) return;
    clearTimeout(this.moving);
    this.moving = undefined;
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushDue = performance.now();
      this.flushTimer = setTimeout(() => this.flush(), 0);
    }
  }

  /** How long the outbox waits between messages now. */
  private get interval(): number {
    if (this.ending) return FRAME_MS;
    if (this.moving !== undefined) return MOVING_MS;
    return this.outbox.summaries.length >= ROWS_PER_MESSAGE || this.rowsStreamed < REST_AFTER_ROWS ? FRAME_MS : REST_MS;
  }

  /**
   * The analysis ended: what the outbox holds goes a message a frame from now, though a list moves. Held a message a
   * second, the rows a list scrolled past while the analysis ran reached the page seconds after the host had them all
   * (the workbench e2e: 3,258 rows held at the end, the page complete 2 s later); this costs a moving list a few
   * messages once, at the end of an analysis.
   */
  private sendRest(): void {
    this.ending = true;
    if (this.flushTimer === undefined) return;
    clearTimeout(this.flushTimer);
    // A frame after the last message still (the page decodes each in a task of its own).
    this.flushDue = this.lastFlush + FRAME_MS;
    this.flushTimer = setTimeout(() => this.flush(), Math.max(0, this.flushDue - performance.now()));
  }

  /** A record was sent to a page: the list's analysis may go on (firstRows). */
  recordSent(): void {
    if (this.held !== undefined) void this.analyseInBackground();
  }

  /**
   * Rows, errors and findings for the pages, sent with what else comes within a frame (FRAME_MS) in one message: the
   * rows with the trace's state, then the findings (of rows sent before, or in the same message).
   */
  private send(summaries: RecordSummary[], lineErrors: LineErrorView[], findings: GuidedFindings[], info = false): void {
    const o = this.outbox;
    // One at a time: a batch may hold thousands of rows, too many arguments for one push.
    for (const s of summaries) o.summaries.push(s);
    for (const e of lineErrors) o.lineErrors.push(e);
    for (const f of findings) o.findings.push(f);
    o.info ||= info;
    if (!o.summaries.length && !o.lineErrors.length && !o.findings.length && !o.info) return;
    const due = this.lastFlush + this.interval;
    // A message's worth of rows at rest goes sooner than the message waited for (REST_MS).
    if (this.flushTimer !== undefined && due >= this.flushDue) return;
    clearTimeout(this.flushTimer);
    this.flushDue = due;
    this.flushTimer = setTimeout(() => this.flush(), Math.max(0, due - performance.now()));
  }

  /** Sends what the outbox holds now (up to ROWS_PER_MESSAGE rows; the rest `interval` later). */
  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const o = this.outbox;
    let event: Extract<HostEvent, { type: 'summaries' | 'guidedFindings' }> | undefined;
    if (o.summaries.length || o.lineErrors.length || o.info) {
      const summaries = o.summaries.splice(0, ROWS_PER_MESSAGE);
      // Findings go with the last of their rows' messages (a finding may be for a row in this outbox).
      const findings = o.summaries.length ? [] : o.findings.splice(0);
      const info = this.session.info('vscode');
      // What stays in the outbox still has to come: the list is not complete before it.
      if (o.summaries.length) info.analysing = true;
      event = { type: 'summaries', summaries, lineErrors: o.lineErrors.splice(0), info };
      this.rowsStreamed += summaries.length;
      if (findings.length) event.findings = findings;
      o.info = o.summaries.length > 0;
    } else if (o.findings.length) event = { type: 'guidedFindings', findings: o.findings.splice(0) };
    if (event) {
      for (const v of this.views) v.event(event);
      openMark('list-sent', this.uri.fsPath, {
        rows: event.type === 'summaries' ? event.summaries.length : 0,
        findings: event.findings?.length ?? 0,
        held: o.summaries.length,
        moving: this.moving !== undefined,
        analysing: event.type === 'summaries' ? event.info.analysing : true,
      });
    }
    this.lastFlush = performance.now();
    for (const w of this.flushed.splice(0)) w();
    if (o.summaries.length || o.findings.length) {
      this.flushDue = this.lastFlush + this.interval;
      this.flushTimer = setTimeout(() => this.flush(), this.interval);
    } else this.ending = false;
  }

  /** What the outbox holds no longer applies (the list starts over). */
  private discardOutbox(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.outbox = { summaries: [], lineErrors: [], findings: [], info: false };
    this.rowsStreamed = 0;
    this.ending = false;
    for (const w of this.flushed.splice(0)) w();
  }

  fileChanged(): Promise<void> {
    return this.serially(async () => {
      await this.analysing;
      const { reset } = await this.session.refresh();
      if (reset) {
        this.discardOutbox();
        for (const v of this.views) v.event({ type: 'reset', reason: 'file', info: this.session.info('vscode') });
      }
      void this.analyseInBackground();
    });
  }

  /** Reads every record in `format` (undefined: per record) from now on: the list starts over in every view. */
  setFormat(format: string | undefined): Promise<void> {
    return this.reanalyse({ format }, 'format');
  }

  /** Adds what this vLLM generation would have sent (undefined: none) from now on: the list starts over. */
  setVllmProfile(vllmProfile: AnalysisOptions['vllmProfile']): Promise<void> {
    return this.reanalyse({ vllmProfile }, 'vllmProfile');
  }

  /** Splits completions recorded without tokens with these tokenizer files from now on: the list starts over. */
  setTokenizers(tokenizers: AnalysisOptions['tokenizers']): Promise<void> {
    return this.reanalyse({ tokenizers }, 'tokenizer');
  }

  /** Silences these kinds from now on (counted, not listed): the list starts over. */
  setIgnore(ignore: AnalysisOptions['ignore']): Promise<void> {
    return this.reanalyse({ ignore: ignore ?? [] }, 'format');
  }

  /** Models the profile's server with or without its reasoning parser from now on: the list starts over. */
  setVllmReasoningParser(vllmReasoningParser: boolean | undefined): Promise<void> {
    return this.reanalyse({ vllmReasoningParser: vllmReasoningParser ?? true }, 'vllmProfile');
  }

  private reanalyse(options: AnalysisOptions, reason: 'format' | 'vllmProfile' | 'tokenizer'): Promise<void> {
    return this.serially(async () => {
      this.stopping = true;
      try {
        await this.analysing;
      } finally {
        this.stopping = false;
      }
      // The first batch's findings were for the options before.
      this.firstGuided = [];
      if (!this.session.setOptions(options)) {
        void this.analyseInBackground();
        return;
      }
      this.discardOutbox();
      for (const v of this.views) v.event({ type: 'reset', reason, info: this.session.info('vscode') });
      void this.analyseInBackground();
    });
  }

  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.work.then(() => (this.disposed ? undefined : task()));
    this.work = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.disposed = true;
    this.painted();
    clearTimeout(this.held);
    clearTimeout(this.moving);
    this.discardOutbox();
    this.onDispose();
    // Close the file once the batch being analysed is done: closing under it made the read fail.
    void (this.analysing ?? Promise.resolve()).catch(() => undefined).then(() => this.session.close());
  }
}

export class TraceEditorProvider implements vscode.CustomReadonlyEditorProvider<TraceDocument> {
  private readonly documents = new Set<TraceDocument>();
  /** The webview's bundle and stylesheet, read once: every page carries them inline (pageHtml.ts says why). */
  private page: Promise<{ script: string; style: string }> | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  static register(context: vscode.ExtensionContext): vscode.Disposable {
    configureEditorThreads();
    const provider = new TraceEditorProvider(context);
    return vscode.Disposable.from(
      vscode.window.registerCustomEditorProvider(TRACE_VIEW_TYPE, provider, {
        webviewOptions: { retainContextWhenHidden: false },
        supportsMultipleEditorsPerDocument: true,
      }),
      vscode.workspace.onDidChangeConfiguration((e) => provider.configurationChanged(e)),
      registerRawRecordDocuments(),
    );
  }

  async openCustomDocument(uri: vscode.Uri): Promise<TraceDocument> {
    if (uri.scheme !== 'file') throw new Error(`Toolscope reads traces from disk by byte offset; ${uri.scheme}: files are not supported.`);
    openMark('document-open', uri.fsPath);
    // Nothing of the first paint needs a grammar engine (a record's what-if findings follow it): a worker loading
    // xgrammar's WASM meanwhile took a core from the extension host and the page on a 2-core machine. The engines
    // start when a page of this trace says it painted its first record. (Engines already up run its what-ifs at once.)
    let painted: () => void = () => undefined;
    const engines = guidedEngine();
    if (!engines.started) engines.holdUntil(new Promise<void>((resolve) => (painted = resolve)), FIRST_PAINT_HOLD_MS);
    let session: TraceSession;
    try {
      session = await TraceSession.open(uri.fsPath, basename(uri.fsPath), await analysisSettingsFor(uri), {}, listWorkers());
    } catch (err) {
      painted();
      throw err;
    }
    const document: TraceDocument = new TraceDocument(uri, session, () => this.documents.delete(document), painted);
    this.documents.add(document);
    openMark('document-opened', uri.fsPath);
    return document;
  }

  /** `toolscope.format`, `toolscope.vllmProfile` or `toolscope.tokenizer` changed: open traces it applies to are analysed again. */
  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    // The files behind the paths may have changed too: read them again.
    if (e.affectsConfiguration(TOKENIZER_SETTING)) clearLocalTokenizers();
    for (const document of this.documents) {
      if (e.affectsConfiguration(TOKENIZER_SETTING, document.uri)) void document.setTokenizers(tokenizerSettingFor(document.uri));
      if (e.affectsConfiguration(FORMAT_SETTING, document.uri)) void document.setFormat(formatSettingFor(document.uri));
      if (e.affectsConfiguration(VLLM_PROFILE_SETTING, document.uri)) void document.setVllmProfile(vllmProfileSettingFor(document.uri));
      if (e.affectsConfiguration(IGNORE_SETTING, document.uri)) void document.setIgnore(ignoreSettingFor(document.uri));
      if (e.affectsConfiguration(VLLM_REASONING_PARSER_SETTING, document.uri))
        void document.setVllmReasoningParser(vllmReasoningParserSettingFor(document.uri));
    }
  }

  async resolveCustomEditor(document: TraceDocument, panel: vscode.WebviewPanel): Promise<void> {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    this.page ??= Promise.all([readFile(join(dist.fsPath, 'webview.js'), 'utf8'), readFile(join(dist.fsPath, 'webview.css'), 'utf8')]).then(
      ([script, style]) => ({ script, style }),
    );
    // The page's first rows and record go in its HTML, which is written once they are read: this returns first. The
    // workbench makes the webview's frame only when the editor has resolved, then loads it and registers its service
    // worker (a browser workbench: 100–400 ms, and about a second more for every webview but the first), meanwhile.
    // They are read once the reply that says so has gone out: read at once, they held it back.
    const initial = afterMessagesWritten().then(() => initialPage(document));
    let disposed = false;
    panel.onDidDispose(() => (disposed = true));
    void Promise.all([this.page, initial]).then(
      ([{ script, style }, first]) => {
        if (disposed) return;
        panel.webview.html = webviewPageHtml({
          script,
          style,
          cspSource: panel.webview.cspSource,
          nonce: makeNonce(),
          title: basename(document.uri.fsPath),
          initial: first?.page,
        });
        openMark('page-written', document.uri.fsPath);
        traceOpened();
      },
      (err: unknown) => {
        if (!disposed) panel.webview.html = webviewFailureHtml(err instanceof Error ? err.message : String(err));
      },
    );
    openMark('webview-created', document.uri.fsPath);
    const rpc: HostRpc = new HostRpc(
      // The list's messages as bytes (packedEnvelope.ts): the page's frames share the thread that relays them.
      (message) => void panel.webview.postMessage(packEnvelope(message)),
      (request, followUp): Promise<HostReply> => this.handle(document, request, rpc, followUp, initial),
    );
    // The folder, filtered to this file: a file name with [ ] { } * ? would be read as a glob pattern.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(document.uri, '..'), '*'));
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onChange = (changed: vscode.Uri) => {
      if (changed.fsPath !== document.uri.fsPath) return;
      // Appends come in bursts: pick them up together.
      clearTimeout(pending);
      pending = setTimeout(() => void document.fileChanged(), 150);
    };
    openViews.set(panel, rpc);
    panel.onDidDispose(() => {
      clearTimeout(pending);
      openViews.delete(panel);
      readyViews.get(document.uri.toString())?.delete(rpc);
    });
    const subscriptions = [
      // The list's events reach the page once it is ready (the `ready` reply's list has what came before).
      { dispose: () => document.detach(rpc) },
      panel.webview.onDidReceiveMessage((m) => void rpc.receive(m)),
      watcher,
      watcher.onDidChange(onChange),
      watcher.onDidCreate(onChange),
    ];
    panel.onDidDispose(() => subscriptions.forEach((s) => s.dispose()));
  }

  private async handle(
    document: TraceDocument,
    request: WebviewRequest,
    rpc: HostRpc,
    followUp: FollowUp,
    initialRead: Promise<{ record: boolean; guided: Promise<GuidedFindings | null> | null } | null>,
  ): Promise<HostReply> {
    switch (request.type) {
      case 'ready': {
        openMark('first-message', document.uri.fsPath);
        // (Read before the page was written: a page asks once it is.)
        const initial = await initialRead;
        await document.firstRows();
        // Every row after this list comes as an event.
        const { summaries, lineErrors } = document.attach(rpc);
        // The record in the page's HTML: its what-if's findings follow the reply, and the list's analysis goes on.
        if (initial?.record) {
          initial.record = false;
          document.session.startListWorkers();
          document.recordSent();
          const guided = initial.guided;
          if (guided) followUp(guided.then((findings) => findings && { type: 'guidedFindings', findings: [findings] }));
        }
        const id = document.uri.toString();
        const views = readyViews.get(id) ?? new Set<HostRpc>();
        views.add(rpc);
        readyViews.set(id, views);
        const reveal = pendingReveals.get(id);
        if (reveal) {
          pendingReveals.delete(id);
          // After the init reply: the webview applies it once the record is listed.
          setTimeout(() => rpc.event(reveal), 0);
        }
        return { type: 'init', info: document.session.info('vscode'), summaries, lineErrors };
      }
      case 'getRecord': {
        openMark('record-asked', document.uri.fsPath);
        // Shown without waiting for the what-if; its findings follow the reply.
        const { view, guided } = await document.session.record(request.key);
        openMark('record-sent', document.uri.fsPath);
        document.recordSent();
        if (guided) followUp(guided.then((findings) => findings && { type: 'guidedFindings', findings: [findings] }));
        shownRecords.set(document.uri.toString(), view.id);
        return { type: 'record', view };
      }
      case 'inView':
        // At most a screenful of keys: more is not a scroll position.
        document.session.setInView(request.keys.filter((k) => typeof k === 'string').slice(0, 200));
        document.listResting();
        return { type: 'ok' };
      case 'listMoving':
        document.listMoving();
        return { type: 'ok' };
      case 'painted':
        document.painted();
        return { type: 'ok' };
      case 'vllmRun':
        return { type: 'vllm', view: await document.session.vllmRun(request.key, request.grouping) };
      case 'openRaw': {
        const { view } = await document.session.record(request.key);
        const uri = rawRecordUri(basename(document.uri.fsPath), view.id, request.key);
        setRawContent(uri, view.rawJson);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.languages.setTextDocumentLanguage(doc, 'json');
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        return { type: 'ok' };
      }
    }
  }
}

/**
 * What a page's HTML carries (protocol.ts, InitialPage): the `ready` reply's first rows, and the view of the first
 * row's record (the one a page without saved state shows first) with its what-if under way; null when reading them
 * failed (the page asks, as it always can).
 */
async function initialPage(
  document: TraceDocument,
): Promise<{ page: InitialPage; record: boolean; guided: Promise<GuidedFindings | null> | null } | null> {
  try {
    // The rest of the list waits for the page: analysed while it loads, it took the CPU the page's load needed.
    await document.firstRows(false);
    const { summaries, lineErrors } = document.session.snapshot();
    const page: InitialPage = {
      init: {
        type: 'init',
        info: document.session.info('vscode'),
        summaries: summaries.slice(0, INITIAL_ROWS),
        lineErrors: lineErrors.slice(0, INITIAL_ROWS),
      },
    };
    // A reveal asked for before the page was written goes with it: applied after the ready reply, it could undo a
    // record the user picked in the page meanwhile.
    const reveal = pendingReveals.get(document.uri.toString());
    if (reveal) {
      pendingReveals.delete(document.uri.toString());
      page.reveal = { recordId: reveal.recordId, tab: reveal.tab };
    }
    const first = summaries[0];
    if (!first) return { page, record: false, guided: null };
    const { view, guided } = await document.session.record(first.key, { listWaits: true });
    if (JSON.stringify(view).length > INITIAL_RECORD_CHARS) return { page, record: false, guided: null };
    page.record = view;
    openMark('record-sent', document.uri.fsPath);
    shownRecords.set(document.uri.toString(), view.id);
    return { page, record: true, guided };
  } catch {
    return null;
  }
}
