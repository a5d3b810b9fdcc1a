/**
 * "Toolscope: Start Recording Proxy" / "Stop Recording Proxy": the recording proxy (src/core/capture) in the
 * extension host, in front of an endpoint from `toolscope.endpoints` (or the embedded simulator). A status-bar
 * item counts the exchanges recorded; clicking it opens the live trace in the Toolscope editor, which follows the
 * file as it grows. Refused in untrusted workspaces, like replay: it sends requests to a server.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { startRecordingProxy, type ExchangeSummary, type RunningProxy } from '../net/capture/recordingProxy.ts';
import type { Endpoint } from '../net/replay/endpoint.ts';
import { startServer, type RunningServer } from '../net/server/openAiServer.ts';
import { ApiKeys, EMBEDDED_ENDPOINT } from './endpoints.ts';
import { pickEndpoint } from './endpointPicker.ts';
import { userSetting } from './userSettings.ts';
import { trustedFor } from './workspaceTrust.ts';
import { TRACE_VIEW_TYPE } from './traceEditorProvider.ts';
import { OPEN_RECORDING_COMMAND } from './recordingCommandIds.ts';

export const RECORDING_CONTEXT = 'toolscope.recording';

interface Recording {
  proxy: RunningProxy;
  embedded: RunningServer | null;
  upstreamName: string;
}

function timestamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

export class RecordingProxyCommand implements vscode.Disposable {
  private recording: Recording | null = null;
  private starting = false;
  private readonly status: vscode.StatusBarItem;

  constructor(
    private readonly keys: ApiKeys,
    private readonly output: vscode.OutputChannel,
  ) {
    this.status = vscode.window.createStatusBarItem('toolscope.recordingProxy', vscode.StatusBarAlignment.Left, 100);
    this.status.name = 'Toolscope Recording Proxy';
    this.status.command = OPEN_RECORDING_COMMAND;
  }

  /** The proxy's base URL, while recording. */
  get url(): string | null {
    return this.recording?.proxy.url ?? null;
  }

  /** The trace file exchanges go to now, while recording. */
  get currentFile(): string | null {
    return this.recording?.proxy.currentFile ?? null;
  }

  async start(): Promise<void> {
    if (!trustedFor('the recording proxy', 'it sends requests to a server', 'record')) return;
    if (this.recording) {
      const { proxy } = this.recording;
      const choice = await vscode.window.showInformationMessage(
        `Toolscope: already recording on ${proxy.url} (${proxy.recorded} exchanges).`,
        'Open Trace',
        'Stop',
      );
      if (choice === 'Open Trace') await this.openTrace();
      else if (choice === 'Stop') await this.stop();
      return;
    }
    if (this.starting) return;
    this.starting = true;
    try {
      await this.startRecording();
    } finally {
      this.starting = false;
    }
  }

  private async startRecording(): Promise<void> {
    const picked = await pickEndpoint('Record the traffic to which endpoint? (toolscope.endpoints)');
    if (!picked) return;
    const tokens = await vscode.window.showQuickPick(
      [
        { label: 'Exchanges', description: 'requests and responses, as the client sees them', value: false },
        {
          label: 'Exchanges and raw tokens',
          description: 'also asks for logprobs / token ids, and takes them out of what the client receives',
          value: true,
        },
      ],
      { title: 'What to record' },
    );
    if (!tokens) return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
    const target = await vscode.window.showSaveDialog({
      title: 'Record the trace to (appended to if it exists)',
      defaultUri: vscode.Uri.joinPath(folder, `toolscope-proxy-${timestamp(new Date())}.jsonl`),
      filters: { 'JSONL traces': ['jsonl'] },
      saveLabel: 'Record Here',
    });
    if (!target) return;

    let embedded: RunningServer | null = null;
    let endpoint: Endpoint;
    try {
      if (picked === EMBEDDED_ENDPOINT) {
        embedded = await startServer();
        endpoint = { name: EMBEDDED_ENDPOINT, baseUrl: embedded.url, model: embedded.model, engine: 'vllm' };
      } else {
        endpoint = picked;
      }
      const apiKey = picked === EMBEDDED_ENDPOINT ? undefined : await this.keys.get(endpoint.name);
      const port = userSetting<number>('proxyPort').value ?? 0;
      const proxy = await startRecordingProxy({
        upstream: endpoint.baseUrl,
        out: target.fsPath,
        port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0,
        captureTokens: tokens.value,
        engine: endpoint.engine,
        apiKey,
        onExchange: (s) => this.exchanged(s),
        onRotate: (path) => {
          this.output.appendLine(`Recording proxy: the trace rotated; now recording to ${path}`);
          this.render();
        },
        onError: (err) => this.output.appendLine(`Recording proxy: ${err instanceof Error ? err.message : String(err)}`),
      });
      this.recording = { proxy, embedded, upstreamName: endpoint.name };
    } catch (err) {
      await embedded?.close();
      void vscode.window.showErrorMessage(
        `Toolscope: the recording proxy did not start: ${err instanceof Error ? err.message : String(err)}`,
      );
      return;
    }
    const { proxy } = this.recording;
    await vscode.commands.executeCommand('setContext', RECORDING_CONTEXT, true);
    this.render();
    this.status.show();
    this.output.appendLine(
      `Recording proxy on ${proxy.url} → ${proxy.upstream} (${endpoint.name}), recording to ${proxy.currentFile}${tokens.value ? ', with raw tokens' : ''}`,
    );
    const choice = await vscode.window.showInformationMessage(
      `Toolscope: recording proxy on ${proxy.url} → ${endpoint.name}. Point your agent's base URL at it.`,
      'Copy URL',
      'Open Trace',
    );
    if (choice === 'Copy URL') await vscode.env.clipboard.writeText(proxy.url);
    else if (choice === 'Open Trace') await this.openTrace();
  }

  async stop(): Promise<void> {
    const recording = this.recording;
    if (!recording) {
      void vscode.window.showInformationMessage('Toolscope: the recording proxy is not running.');
      return;
    }
    this.recording = null;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Toolscope: stopping the recording proxy (finishing exchanges in flight)' },
      async () => {
        await recording.proxy.close({ graceMs: 5000 });
        await recording.embedded?.close();
      },
    );
    this.status.hide();
    await vscode.commands.executeCommand('setContext', RECORDING_CONTEXT, false);
    const file = recording.proxy.currentFile;
    this.output.appendLine(
      `Recording proxy stopped: ${recording.proxy.recorded} exchange${recording.proxy.recorded === 1 ? '' : 's'} recorded (last file: ${file})`,
    );
    const choice = await vscode.window.showInformationMessage(
      `Toolscope: recorded ${recording.proxy.recorded} exchange${recording.proxy.recorded === 1 ? '' : 's'} to ${file}.`,
      'Open Trace',
    );
    if (choice === 'Open Trace') await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), TRACE_VIEW_TYPE);
  }

  /** Opens the file being recorded in the Toolscope editor (it follows appends). */
  async openTrace(): Promise<void> {
    const file = this.currentFile;
    if (!file) {
      void vscode.window.showInformationMessage('Toolscope: the recording proxy is not running.');
      return;
    }
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), TRACE_VIEW_TYPE);
  }

  private exchanged(s: ExchangeSummary): void {
    if (s.error) this.output.appendLine(`Recording proxy: ${s.id} ${s.method} ${s.path} ${s.status ?? '---'}: ${s.error}`);
    this.render();
  }

  private render(): void {
    const r = this.recording;
    if (!r) return;
    const n = r.proxy.recorded;
    this.status.text = `$(record) ${n}`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendText(
      `Toolscope recording proxy: ${n} exchange${n === 1 ? '' : 's'} recorded\n\n${r.proxy.url} → ${r.proxy.upstream} (${r.upstreamName})\n\n${r.proxy.currentFile}\n\nClick to open the live trace.`,
    );
    this.status.tooltip = tip;
    this.status.accessibilityInformation = { label: `Toolscope recording proxy, ${n} exchanges recorded. Open the live trace.` };
  }

  dispose(): void {
    const recording = this.recording;
    this.recording = null;
    this.status.dispose();
    // The extension host is going away: exchanges in flight are aborted and recorded as such.
    if (recording) void recording.proxy.close({ graceMs: 0 }).then(() => recording.embedded?.close());
  }
}
