/**
 * The Toolscope trace editor: a read-only custom editor for `.jsonl` traces. The host indexes and analyses
 * (src/core); the webview renders view models it asks for over the typed protocol (src/shared/protocol.ts).
 * The file is never written; when it grows, new records are analysed and pushed to the open views.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { HostRpc, type HostReply, type WebviewRequest } from '../shared/protocol.ts';
import { makeNonce, webviewPageHtml } from '../core/view/pageHtml.ts';
import { TraceSession } from '../core/view/traceSession.ts';

export const TRACE_VIEW_TYPE = 'toolscope.trace';

class TraceDocument implements vscode.CustomDocument {
  private readonly views = new Set<HostRpc>();
  private analysing: Promise<void> | null = null;
  private disposed = false;

  constructor(
    readonly uri: vscode.Uri,
    readonly session: TraceSession,
  ) {}

  attach(rpc: HostRpc): vscode.Disposable {
    this.views.add(rpc);
    return new vscode.Disposable(() => this.views.delete(rpc));
  }

  /** Analyses the rest of the list in batches, pushing each batch to every open view. */
  analyseInBackground(): Promise<void> {
    this.analysing ??= (async () => {
      try {
        for (;;) {
          if (this.disposed) return;
          const batch = await this.session.nextBatch(40);
          if (!batch) break;
          const info = this.session.info('vscode');
          for (const v of this.views) v.event({ type: 'summaries', summaries: batch.summaries, lineErrors: batch.lineErrors, info });
          // Yield so requests for records are answered between batches.
          await new Promise((r) => setTimeout(r, 0));
        }
        const info = this.session.info('vscode');
        for (const v of this.views) v.event({ type: 'summaries', summaries: [], lineErrors: [], info });
      } finally {
        this.analysing = null;
      }
    })();
    return this.analysing;
  }

  async fileChanged(): Promise<void> {
    if (this.disposed) return;
    await this.analysing;
    const { reset } = await this.session.refresh();
    if (reset) for (const v of this.views) v.event({ type: 'reset', info: this.session.info('vscode') });
    await this.analyseInBackground();
  }

  dispose(): void {
    this.disposed = true;
    void this.session.close();
  }
}

export class TraceEditorProvider implements vscode.CustomReadonlyEditorProvider<TraceDocument> {
  constructor(private readonly context: vscode.ExtensionContext) {}

  static register(context: vscode.ExtensionContext): vscode.Disposable {
    return vscode.window.registerCustomEditorProvider(TRACE_VIEW_TYPE, new TraceEditorProvider(context), {
      webviewOptions: { retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: true,
    });
  }

  async openCustomDocument(uri: vscode.Uri): Promise<TraceDocument> {
    if (uri.scheme !== 'file') throw new Error(`Toolscope reads traces from disk by byte offset; ${uri.scheme}: files are not supported.`);
    const session = await TraceSession.open(uri.fsPath, basename(uri.fsPath));
    return new TraceDocument(uri, session);
  }

  async resolveCustomEditor(document: TraceDocument, panel: vscode.WebviewPanel): Promise<void> {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    panel.webview.html = webviewPageHtml({
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      cspSource: panel.webview.cspSource,
      nonce: makeNonce(),
      title: basename(document.uri.fsPath),
    });
    const rpc = new HostRpc(
      (message) => void panel.webview.postMessage(message),
      (request) => this.handle(document, request),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(document.uri, '..'), basename(document.uri.fsPath)));
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      // Appends come in bursts: pick them up together.
      clearTimeout(pending);
      pending = setTimeout(() => void document.fileChanged(), 150);
    };
    panel.onDidDispose(() => clearTimeout(pending));
    const subscriptions = [
      document.attach(rpc),
      panel.webview.onDidReceiveMessage((m) => void rpc.receive(m)),
      watcher,
      watcher.onDidChange(onChange),
      watcher.onDidCreate(onChange),
    ];
    panel.onDidDispose(() => subscriptions.forEach((s) => s.dispose()));
  }

  private async handle(document: TraceDocument, request: WebviewRequest): Promise<HostReply> {
    switch (request.type) {
      case 'ready': {
        const { summaries, lineErrors } = document.session.snapshot();
        void document.analyseInBackground();
        return { type: 'init', info: document.session.info('vscode'), summaries, lineErrors };
      }
      case 'getRecord':
        return { type: 'record', view: (await document.session.record(request.key)).view };
      case 'openRaw': {
        const { view } = await document.session.record(request.key);
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: view.rawJson });
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        return { type: 'ok' };
      }
    }
  }
}
