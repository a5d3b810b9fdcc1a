/**
 * The webview's one link to its host. Inside VS Code: the webview API (postMessage, message events, persisted
 * getState/setState) through the typed RPC. In a standalone report: the embedded trace data answers the same
 * requests in the page, and UI state lives in sessionStorage. Nothing else in the webview knows which it is.
 */
import {
  WebviewRpc,
  type HostEvent,
  type HostReply,
  type InitialPage,
  type LineErrorView,
  type RecordSummary,
  type RecordView,
  type ReplyFor,
  type TraceInfo,
  type WebviewRequest,
} from '../src/shared/protocol.ts';
import { unpackEnvelope } from '../src/shared/packedEnvelope.ts';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState<T>(state: T): T;
}

declare global {
  // Defined by VS Code in a webview (callable once).
  var acquireVsCodeApi: (() => VsCodeApi) | undefined;
}

/** What a report embeds in `#toolscope-data` (src/host/view/pageHtml.ts, `EmbeddedTrace`). */
export interface EmbeddedData {
  info: TraceInfo;
  summaries: RecordSummary[];
  lineErrors: LineErrorView[];
  records: Record<string, RecordView>;
}

export interface HostConnection {
  readonly host: 'vscode' | 'embedded';
  request<R extends WebviewRequest>(body: R): Promise<ReplyFor<R>>;
  /** Listener for pushed events; set it before the `ready` request. */
  onEvent: ((event: HostEvent) => void) | null;
  /** What the host put in the page for its first paint (protocol.ts, InitialPage), if anything. */
  readonly initial: InitialPage | null;
  loadState(): unknown;
  saveState(state: unknown): void;
}

export interface ConnectOptions {
  /** The report has no editor to open the raw record in: the page shows it. */
  showRaw(title: string, json: string): void;
}

class VsCodeConnection implements HostConnection {
  readonly host = 'vscode';
  onEvent: ((event: HostEvent) => void) | null = null;
  readonly initial = readInitial();
  private readonly rpc: WebviewRpc;

  constructor(private readonly api: VsCodeApi) {
    this.rpc = new WebviewRpc(
      (message) => api.postMessage(message),
      (event) => this.onEvent?.(event),
    );
    // The list's messages come as bytes (packedEnvelope.ts).
    window.addEventListener('message', (e: MessageEvent) => this.rpc.receive(unpackEnvelope(e.data)));
  }

  request<R extends WebviewRequest>(body: R): Promise<ReplyFor<R>> {
    return this.rpc.request(body);
  }

  loadState(): unknown {
    return this.api.getState();
  }

  saveState(state: unknown): void {
    this.api.setState(state);
  }
}

class EmbeddedConnection implements HostConnection {
  readonly host = 'embedded';
  onEvent: ((event: HostEvent) => void) | null = null;
  /** A report has it all: its answers need no round trip. */
  readonly initial = null;
  private readonly storageKey: string;

  constructor(
    private readonly data: EmbeddedData,
    private readonly options: ConnectOptions,
  ) {
    this.storageKey = `toolscope:state:${data.info.fileName}`;
  }

  async request<R extends WebviewRequest>(body: R): Promise<ReplyFor<R>> {
    // Answer asynchronously, like a real host.
    await Promise.resolve();
    // The reply types per request are checked where they are built; the union is what `answer` returns.
    return this.answer(body) as ReplyFor<R>;
  }

  private answer(body: WebviewRequest): HostReply {
    switch (body.type) {
      case 'ready':
        return { type: 'init', info: this.data.info, summaries: this.data.summaries, lineErrors: this.data.lineErrors };
      case 'getRecord': {
        const view = Object.hasOwn(this.data.records, body.key) ? this.data.records[body.key] : undefined;
        return view ? { type: 'record', view } : { type: 'error', message: `record ${body.key} is not in this report` };
      }
      case 'vllmRun':
        // Nothing runs in a report: it holds the grouping it was written with.
        return {
          type: 'error',
          message:
            'a report shows the delta grouping it was written with (toolscope report --delta-tokens N|recorded); open the trace in VS Code to switch',
        };
      case 'inView':
      case 'listMoving':
      case 'painted':
        // A report holds every finding already, nothing comes while the list moves, and nothing waits for its paint.
        return { type: 'ok' };
      case 'openRaw': {
        const view = Object.hasOwn(this.data.records, body.key) ? this.data.records[body.key] : undefined;
        if (!view) return { type: 'error', message: `record ${body.key} is not in this report` };
        this.options.showRaw(`${view.id} (line ${view.line})`, view.rawJson);
        return { type: 'ok' };
      }
    }
  }

  loadState(): unknown {
    try {
      const text = window.sessionStorage.getItem(this.storageKey);
      return text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return undefined;
    }
  }

  saveState(state: unknown): void {
    try {
      window.sessionStorage.setItem(this.storageKey, JSON.stringify(state));
    } catch {
      // Storage may be unavailable (file: pages in some browsers, quota): state then lasts the page.
    }
  }
}

/** The page's first rows and record from `#toolscope-initial`; null when it has none or they do not read as such. */
function readInitial(): InitialPage | null {
  const el = document.getElementById('toolscope-initial');
  if (!el) return null;
  try {
    const data = JSON.parse(el.textContent ?? '') as Partial<InitialPage> | null;
    const init = data?.init;
    if (init?.type !== 'init' || typeof init.info !== 'object' || !Array.isArray(init.summaries) || !Array.isArray(init.lineErrors))
      return null;
    return data as InitialPage;
  } catch {
    return null;
  }
}

function isEmbeddedData(value: unknown): value is EmbeddedData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<EmbeddedData>;
  return (
    typeof v.info === 'object' &&
    v.info !== null &&
    Array.isArray(v.summaries) &&
    Array.isArray(v.lineErrors) &&
    typeof v.records === 'object' &&
    v.records !== null
  );
}

/** The VS Code connection when running in a webview, else the in-page one over `#toolscope-data`. */
export function connect(options: ConnectOptions): HostConnection {
  if (typeof globalThis.acquireVsCodeApi === 'function') return new VsCodeConnection(globalThis.acquireVsCodeApi());
  const el = document.getElementById('toolscope-data');
  if (!el) throw new Error('no trace data in this page (#toolscope-data is missing) and no VS Code host');
  const data: unknown = JSON.parse(el.textContent ?? '');
  if (!isEmbeddedData(data)) throw new Error('the trace data in this page is not a Toolscope report');
  return new EmbeddedConnection(data, options);
}
