/**
 * The one message protocol between the extension host (or the standalone report's in-page host) and the
 * trace editor webview. Both sides import this file. Requests carry an id and get exactly one reply; events
 * carry none. The host does all parsing; the webview renders view models and sends intents.
 */
import type { Diagnostic, DiagnosticKindInfo, Severity } from './diagnostic.ts';
import type { FormatBasis } from './formatBasis.ts';
import type { K2vvSummary } from './k2vvSummary.ts';
import type { ParserDelta } from './parserDelta.ts';
import type { ParserState } from './parserState.ts';
import type { ChatMessage, ChatTool, RecordSource, ToolChoice } from './record.ts';
import type { TokenSource } from './token.ts';
import type { VllmDeltaMessage, VllmGeneration, VllmGroupingChoice, VllmGroupingUsed } from './vllmStream.ts';

export type { VllmGroupingChoice, VllmGroupingUsed };

// ---- view models -------------------------------------------------------------------------------------

/** One row of the record list. `key` is `${entry}:${k}` (an SSE entry can hold several streams). */
export interface RecordSummary {
  /** Opaque to the webview. */
  key: string;
  /** The file the record is in, when one view shows several files (a report of a directory). */
  file?: string;
  entry: number;
  line: number;
  id: string;
  model: string | null;
  source: RecordSource;
  format: string;
  calls: number;
  worst: Severity | null;
  counts: Record<Severity, number>;
  kinds: Partial<Record<string, number>>;
  /** The request failed (HTTP error, K2VV failed): first line of the error. */
  failed: string | null;
  /** First characters of the content, for the list and text filter. */
  preview: string;
  /** The guided what-if is still running: its findings (and counts) follow in a `guidedFindings` event. */
  guidedPending: boolean;
}

export interface LineErrorView {
  file?: string;
  line: number;
  message: string;
}

/** What a token is, for colouring: from special tokens and the parser state after the token. */
export type TokenRole = 'content' | 'reasoning' | 'marker' | 'think-marker' | 'special' | 'section' | 'call-id' | 'arguments';

export interface TokenView {
  text: string;
  role: TokenRole;
  special: boolean;
  approximate: boolean;
  id?: number;
  /** A byte-level token holding part of a character: its bytes (`\xF0\x9F`), shown instead of its text. */
  bytes?: string;
  logprob?: number;
  /** Parser state after this token. */
  state: ParserState;
  /** What the client would have received for this token (one token per delta). */
  emitted: ParserDelta | null;
}

export interface SchemaErrorView {
  path: string;
  message: string;
  severity: Severity;
}

export interface CallView {
  index: number;
  id: string;
  name: string;
  arguments: string;
  /** Token range of the call, from its opening marker to its closing one (end exclusive). */
  tokenStart: number;
  tokenEnd: number;
  terminated: boolean;
  /** Token at which each argument fragment reached the client, and the fragment. */
  fragments: Array<{ token: number; text: string }>;
  schemaErrors: SchemaErrorView[];
  /** The request's definition of the called tool, or null when undeclared. */
  tool: ChatTool | null;
}

export interface MessageView {
  content: string | null;
  reasoning: string | null;
  calls: Array<{ id: string; name: string; arguments: string }>;
}

export interface RecordView {
  key: string;
  id: string;
  line: number;
  lastLine: number;
  source: RecordSource;
  format: string;
  /** Why this format: chosen by the user, named by the record, detected (markup, parser, model, history), or assumed. */
  formatBasis: FormatBasis;
  /** The evidence in words (`its markup in the completion`, `model "openai/gpt-oss-120b"`…). */
  formatEvidence: string;
  /** The format's model writes call ids (Kimi's `functions.name:idx`); otherwise ids are the server's to invent. */
  writesCallIds: boolean;
  model: string | null;
  /** `none`: the record holds no raw completion (only a response or a request). */
  tokenOrigin: 'recorded' | 'splitter' | 'none';
  /** Where the token ids come from (`re-encoded`: the model's tokenizer run on the text), or null without tokens. */
  tokenSource: TokenSource | null;
  /** The header line about them: `tokens: o200k_harmony (exact, re-encoded…)`, `tokens: approximate — set toolscope.tokenizer`. */
  tokenLabel: string | null;
  /** Some token boundaries are inferred, not recorded: the UI says so. */
  approximate: boolean;
  rebuilt: boolean;
  tokenWarning: string | null;
  tokens: TokenView[];
  /** Flushed at the end of the stream, after the last token. */
  finalEmitted: ParserDelta | null;
  diagnostics: Diagnostic[];
  /** Findings of kinds the user ignores (`toolscope.ignoreFindings`), counted per kind: not listed, not lost. */
  ignored: Partial<Record<string, number>>;
  /**
   * The guided what-if is still running: `diagnostics` lack its findings, which follow in a `guidedFindings` event
   * (the record is shown without waiting for the grammar engine).
   */
  guidedPending: boolean;
  calls: CallView[];
  /** Toolscope's reference parse (of the completion; of the response when there is no completion). */
  reference: MessageView;
  /** What the client received, when recorded. */
  response: (MessageView & { finishReason: string | null; streamed: boolean; chunks: number }) | null;
  /** The recorded stream as the client received it, chunk by chunk; null when the response was not streamed (or none). */
  clientStream: ClientStreamView | null;
  request: { model: string | null; messages: ChatMessage[]; tools: ChatTool[]; toolChoice: ToolChoice | null } | null;
  failed: string | null;
  /**
   * The prompt: recorded, or the request rendered with a chat template (the user's, else Toolscope's Kimi K2
   * template, for reading only); null for requests of other formats. `error`: the template failed on it.
   */
  prompt: { text: string | null; origin: 'recorded' | 'rendered'; template: string | null; error: string | null } | null;
  /** For a replay record: the original and the other replays of it, side by side. */
  comparison: ComparisonView | null;
  /**
   * With a vLLM profile chosen (`toolscope.vllmProfile`, `--vllm-profile`) and a raw Kimi K2 completion: what that
   * vLLM generation would have sent, next to the reference parse. Absent or null otherwise.
   */
  vllm?: VllmView | null;
  /** The record as JSON (pretty, credentials redacted; cut with a note past a size limit). */
  rawJson: string;
}

/** One recorded chunk (choice 0's delta) and the completion tokens that hold its text (end exclusive), when found. */
export interface ClientChunkView {
  delta: ParserDelta;
  tokenStart: number | null;
  tokenEnd: number | null;
}

/**
 * The recorded stream. `aligned`: every chunk's text was found in order in the raw completion, so each chunk has
 * its tokens; otherwise no chunk has (the server rewrote some text) and the stream is shown per chunk.
 */
export interface ClientStreamView {
  chunks: ClientChunkView[];
  aligned: boolean;
  /** Chunks in the stream (`chunks` holds at most the first 20,000). */
  total: number;
}

/** One input delta of a vLLM profile run and what vLLM returned for it. */
export interface VllmDeltaView {
  /** The delta's text as fed to the parser. */
  text: string;
  /** The completion tokens it holds (end exclusive). */
  tokenStart: number;
  tokenEnd: number;
  /** The DeltaMessage (set fields only), or null when the parser returned nothing. */
  message: VllmDeltaMessage | null;
}

/** One line of the side by side: the content, or a call of the reference parse and what vLLM made of it. */
export interface VllmRowView {
  kind: 'content' | 'call';
  /** Reference side: the content, or the call (null: a call only vLLM would have sent). */
  reference: { content: string | null } | { id: string; name: string; arguments: string } | null;
  /** vLLM side (null: a call vLLM would not have sent). */
  vllm: { content: string | null } | { id: string; name: string; arguments: string } | null;
  /** Indices into `VllmView.diagnostics` of the findings about this line. */
  findings: number[];
}

/** What a vLLM generation would have sent for a record's raw completion, and how it differs from the reference. */
export interface VllmView {
  profile: VllmGeneration;
  commit: string;
  /** When the generation was current and what it is (docs/formats/kimi-k2.md). */
  description: string;
  grouping: VllmGroupingUsed;
  /** `1 token per delta`, `4 tokens per delta`, `as recorded (…)`. */
  groupingLabel: string;
  /** Why the grouping asked for was not used, or null. */
  groupingNote: string | null;
  /** Where the record's own delta grouping comes from, when it has one (else `recorded` cannot be chosen). */
  recordedSource: string | null;
  /** Tokens of a leading think block, handed to the reasoning parser before the tool parser. */
  reasoningTokens: number;
  rows: VllmRowView[];
  /** The non-streaming answer (`extract_tool_calls`) for the same completion. */
  nonstream: MessageView;
  /** The input deltas in order (at most the first 2,000; `deltasTotal` counts them all). */
  deltas: VllmDeltaView[];
  deltasTotal: number;
  /** Generation C's end-of-stream flush (`finish_streaming()`); undefined for A and B, which have none. */
  finish?: VllmDeltaMessage | null;
  /** The vllm-divergence findings for this grouping. */
  diagnostics: Diagnostic[];
}

/** K2-Vendor-Verifier's summary fields for one run (src/host/eval/k2vvMetrics.ts computes them). */
export type EvalSummaryView = K2vvSummary;

export interface EvalRunView {
  /** `guided off`, `guided on`, or the file name. */
  label: string;
  /** The answers came from Toolscope's simulator (`toolscope_run.simulated` in the results lines), not a model. */
  simulated: boolean;
  fileName: string;
  summary: EvalSummaryView;
  /** Error- and warning-level findings by kind, over the run's records. */
  findings: Partial<Record<string, number>>;
}

/** One side of a sample in a comparison (src/host/eval/compareRuns.ts). */
export interface EvalSampleSideView {
  status: string;
  trigger: boolean;
  schemaValid: boolean | null;
  findings: Partial<Record<string, number>>;
}

/** Two runs compared: figures with deltas, and the samples where trigger, schema, outcome or findings changed. */
export interface EvalCompareView {
  baseline: { label: string; runs: number; requests: number };
  candidate: { label: string; runs: number; requests: number };
  figures: Array<{ figure: string; baseline: number | null; candidate: number | null; delta: number | null }>;
  samples: Array<{ dataIndex: number; baseline: EvalSampleSideView | null; candidate: EvalSampleSideView | null; changed: string[] }>;
  joined: number;
}

/** The eval summary of a K2VV results file (and its guided off/on sibling). */
export interface EvalPanelView {
  runs: EvalRunView[];
  /** For a guided off / on pair: off as the baseline, on as the candidate. */
  compare?: EvalCompareView | null;
}

/** One side of a replay comparison: a recording or one replay of it, as the client got it. */
export interface ComparisonColumn {
  /** `recorded`, `guided off`, `guided on`, `guided on (completions)`… */
  label: string;
  recordId: string;
  /** Where and when the run was made (the replay's `meta`), null when the record does not say. */
  endpoint: string | null;
  model: string | null;
  /** ISO time the run was made. */
  created: string | null;
  finishReason: string | null;
  content: string | null;
  calls: Array<{ name: string; arguments: string }>;
  /** Errors and warnings. */
  findings: Array<{ code: string; kind: string; severity: Severity; message: string }>;
  error: string | null;
}

/** A replay record next to its original and the other replays of it, with a word diff of two of them. */
export interface ComparisonView {
  replayOf: string;
  columns: ComparisonColumn[];
  diff: { left: string; right: string; parts: Array<{ op: 'same' | 'added' | 'removed'; text: string }> } | null;
  /** Why the recorded original is not shown, when it is not. */
  originalNote: string | null;
  /** Where this replay's tokens part from the other guided setting's replay of the same recording, when both have tokens. */
  parting?: PartingView | null;
}

/**
 * The first token where a replay's answer parts from its counterpart (guided on against guided off, same mode): the
 * token the grammar stepped in at. Token indices are this record's; `there` is the counterpart's token at that index.
 */
export interface PartingView {
  ownLabel: string;
  otherLabel: string;
  otherId: string;
  /** Index of the first differing token; null when the two answers are the same token for token. */
  token: number | null;
  here: string | null;
  there: string | null;
}

export interface TraceInfo {
  fileName: string;
  entries: number;
  /** True while the host is still analysing records for the list. */
  analysing: boolean;
  /** Where the data comes from: the live editor, or a standalone report. */
  host: 'vscode' | 'report' | 'harness';
  /** The format every record is read as (the user's choice: `toolscope.format`, `--format`); null: per record. */
  format: string | null;
  /** K2-Vendor-Verifier figures when the file holds K2VV result lines (with its guided off/on sibling). */
  eval?: EvalPanelView | null;
  /** The catalogue of diagnostic kinds, by kind (the host's registered checks declare them; the view knows none). */
  diagnosticKinds: Record<string, DiagnosticKindInfo>;
}

/**
 * A record's findings once its guided what-if answered, for a record or list row sent with `guidedPending`: they
 * replace the record's `diagnostics` and `ignored` (src/shared/guidedFindings.ts), and its row.
 */
export interface GuidedFindings {
  key: string;
  /** Every finding of the record, the what-if's included, in the order the full analysis gives them. */
  diagnostics: Diagnostic[];
  ignored: Partial<Record<string, number>>;
  /** The record's list row with them counted. */
  summary: RecordSummary;
}

// ---- messages ----------------------------------------------------------------------------------------

export type WebviewRequest =
  | { type: 'ready' }
  | { type: 'getRecord'; key: string }
  | { type: 'openRaw'; key: string }
  /** The rows the list shows now (the user scrolled): their what-ifs go first. Answered `ok`. */
  | { type: 'inView'; keys: string[] }
  /**
   * The list started moving (the user scrolls it): rows and findings for it may wait until it rests, which the next
   * `inView` says. Answered `ok`.
   */
  | { type: 'listMoving' }
  /** The page painted its first record: work held back for that first paint may start (the grammar engines). Answered `ok`. */
  | { type: 'painted' }
  /** Run the record's raw completion through its vLLM profile again with another delta grouping. */
  | { type: 'vllmRun'; key: string; grouping: VllmGroupingChoice };

export type HostReply =
  | { type: 'init'; info: TraceInfo; summaries: RecordSummary[]; lineErrors: LineErrorView[] }
  | { type: 'record'; view: RecordView }
  | { type: 'vllm'; view: VllmView }
  | { type: 'error'; message: string }
  | { type: 'ok' };

/**
 * What a trace editor's page carries in its HTML (`#toolscope-initial`), so it paints its first record without a
 * round trip: the `ready` reply as it was when the page was written (the page still asks; the reply brings the list
 * as it is then), and the view of the first row's record when the page starts with it.
 */
export interface InitialPage {
  init: Extract<HostReply, { type: 'init' }>;
  record?: RecordView;
  /** A record to select and the tab to show (as the `reveal` event), asked for before the page was written. */
  reveal?: { recordId: string; tab: 'timeline' | 'compare' };
}

/** Pushed by the host: more of the list analysed, or the file grew; `reset`: the list starts over (file replaced, format changed). */
export type HostEvent =
  /**
   * More rows (new, or replacing rows of the same key: re-analysed); `findings`: what-ifs answered since, merged
   * after the rows as a `guidedFindings` event is (the host sends the list at most once a frame, in one message).
   */
  | { type: 'summaries'; summaries: RecordSummary[]; lineErrors: LineErrorView[]; info: TraceInfo; findings?: GuidedFindings[] }
  | { type: 'reset'; info: TraceInfo; reason?: 'file' | 'format' | 'vllmProfile' | 'tokenizer' }
  /** The guided what-if answered for records sent without its findings (a record view, list rows): merge them. */
  | { type: 'guidedFindings'; findings: GuidedFindings[] }
  /** A contributed stepping command (F10, F9, F8…): the workbench's keys, not the webview's, so it acts once. */
  | { type: 'step'; action: StepCommand }
  /** Select a record by id (once it is listed) and show one of its tabs: a replay just written, on Compare. */
  | { type: 'reveal'; recordId: string; tab: 'timeline' | 'compare' };

/** What the host's stepping commands ask the active trace editor to do (a subset of the webview's actions). */
export type StepCommand = 'prev' | 'next' | 'prevCall' | 'nextCall' | 'prevDiag' | 'nextDiag';

export type ReplyFor<R extends WebviewRequest> = R['type'] extends 'ready'
  ? Extract<HostReply, { type: 'init' }> | Extract<HostReply, { type: 'error' }>
  : R['type'] extends 'getRecord'
    ? Extract<HostReply, { type: 'record' }> | Extract<HostReply, { type: 'error' }>
    : R['type'] extends 'vllmRun'
      ? Extract<HostReply, { type: 'vllm' }> | Extract<HostReply, { type: 'error' }>
      : Extract<HostReply, { type: 'ok' }> | Extract<HostReply, { type: 'error' }>;

export type Envelope =
  | { kind: 'request'; id: number; body: WebviewRequest }
  | { kind: 'reply'; id: number; body: HostReply }
  | { kind: 'event'; body: HostEvent };

export function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (kind === 'request' || kind === 'reply' || kind === 'event') && typeof (value as { body?: unknown }).body === 'object';
}

/** The webview's side of the RPC: requests with ids, replies matched back, events dispatched. */
export class WebviewRpc {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: HostReply) => void>();

  constructor(
    private readonly post: (message: Envelope) => void,
    private readonly onEvent: (event: HostEvent) => void,
  ) {}

  request<R extends WebviewRequest>(body: R): Promise<ReplyFor<R>> {
    const id = this.nextId++;
    this.post({ kind: 'request', id, body });
    return new Promise((resolve) => this.pending.set(id, resolve as (reply: HostReply) => void));
  }

  receive(message: unknown): void {
    if (!isEnvelope(message)) return;
    if (message.kind === 'reply') {
      this.pending.get(message.id)?.(message.body);
      this.pending.delete(message.id);
    } else if (message.kind === 'event') {
      this.onEvent(message.body);
    }
  }
}

/**
 * An event that completes a reply (the guided findings of a record sent without them), posted when it comes but
 * never before the reply; null: nothing to send after all.
 */
export type FollowUp = (event: Promise<HostEvent | null>) => void;

/** The host's side: answers requests through a handler, pushes events. */
export class HostRpc {
  constructor(
    private readonly post: (message: Envelope) => void,
    private readonly handle: (request: WebviewRequest, followUp: FollowUp) => Promise<HostReply>,
  ) {}

  async receive(message: unknown): Promise<void> {
    if (!isEnvelope(message) || message.kind !== 'request') return;
    const later: Array<Promise<HostEvent | null>> = [];
    let reply: HostReply;
    try {
      reply = await this.handle(message.body, (event) => later.push(event));
    } catch (err) {
      reply = { type: 'error', message: err instanceof Error ? err.message : String(err) };
    }
    this.post({ kind: 'reply', id: message.id, body: reply });
    // Attached only now: an event that is already there cannot overtake its reply.
    for (const event of later)
      event.then(
        (body) => body && this.event(body),
        () => undefined,
      );
  }

  event(body: HostEvent): void {
    this.post({ kind: 'event', body });
  }
}
