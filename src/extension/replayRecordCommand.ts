/**
 * "Toolscope: Replay Record": picks a record, an endpoint and guided off/on/both, replays with progress and
 * cancel, appends the replays beside the trace and opens them next to it. Refused in untrusted workspaces.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { Analyzer } from '../core/analysis.ts';
import { replayRecord } from '../net/replay/replay.ts';
import type { Endpoint } from '../net/replay/endpoint.ts';
import { startServer, type RunningServer } from '../net/server/openAiServer.ts';
import { loadAll } from '../io/trace/loadTrace.ts';
import type { TraceRecord } from '../core/trace/record.ts';
import { isTraceFileName } from '../core/trace/traceFileNames.ts';
import { appendRecords, siblingReplaysPath } from '../io/trace/traceWriter.ts';
import { ApiKeys, configuredEndpoints, EMBEDDED_ENDPOINT } from './endpoints.ts';
import { revealInTrace, TRACE_VIEW_TYPE } from './traceEditorProvider.ts';
import { nodeServices } from '../io/nodeServices.ts';

export interface ReplayTarget {
  uri?: vscode.Uri;
  recordId?: string;
}

export class ReplayRecordCommand {
  constructor(
    private readonly keys: ApiKeys,
    private readonly output: vscode.OutputChannel,
  ) {}

  async run(target: ReplayTarget = {}): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window
        .showWarningMessage(
          "Toolscope: replay is disabled in untrusted workspaces, because it sends the trace's requests to a server. Trust the workspace to replay.",
          'Manage Workspace Trust',
        )
        .then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.trust.manage');
        });
      return;
    }
    const uri = target.uri ?? activeTrace();
    if (!uri) {
      void vscode.window.showErrorMessage('Toolscope: open a .jsonl trace to replay one of its records.');
      return;
    }
    const { records } = await loadAll(uri.fsPath);
    const replayable = records.filter((r) => Array.isArray(r.record.request?.messages));
    if (!replayable.length) {
      void vscode.window.showErrorMessage(`Toolscope: no record in ${basename(uri.fsPath)} has a chat request to replay.`);
      return;
    }
    const original = target.recordId
      ? replayable.find((r) => r.record.id === target.recordId)
      : await pickRecord(replayable.map((r) => r.record));
    if (!original) {
      if (target.recordId) void vscode.window.showErrorMessage(`Toolscope: record ${target.recordId} has no chat request to replay.`);
      return;
    }
    const record = 'record' in original ? original.record : original;
    const endpointChoice = await pickEndpoint();
    if (!endpointChoice) return;
    const guided = await vscode.window.showQuickPick(
      [
        { label: 'Both', description: 'guided decoding off and on, side by side', value: [false, true] },
        { label: 'Off', description: 'the plain request', value: [false] },
        { label: 'On', description: 'strict tools / structural tag', value: [true] },
      ],
      { title: 'Guided decoding' },
    );
    if (!guided) return;
    const outPath = siblingReplaysPath(uri.fsPath);
    const analyzer = new Analyzer({}, nodeServices());
    const written = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Toolscope: replaying ${record.id}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let embedded: RunningServer | null = null;
        try {
          let endpoint: Endpoint;
          if (endpointChoice === EMBEDDED_ENDPOINT) {
            embedded = await startServer({ script: records.map((r) => r.record) });
            endpoint = { name: EMBEDDED_ENDPOINT, baseUrl: embedded.url, model: 'toolscope-sim-kimi-k2', engine: 'vllm' };
          } else {
            endpoint = endpointChoice;
          }
          const apiKey = endpointChoice === EMBEDDED_ENDPOINT ? undefined : await this.keys.get(endpoint.name);
          const out: TraceRecord[] = [];
          for (const on of guided.value) {
            progress.report({ message: `guided ${on ? 'on' : 'off'} on ${endpoint.name}…` });
            let events = 0;
            const { record: replay, error } = await replayRecord(record, {
              endpoint,
              apiKey,
              mode: 'chat',
              guided: on,
              signal: abort.signal,
              timeoutMs: 600_000,
              onEvent: () => {
                if (++events % 20 === 0) progress.report({ message: `guided ${on ? 'on' : 'off'}: ${events} chunks` });
              },
              onGuidedProblem: (reason) =>
                void vscode.window.showWarningMessage(
                  `Toolscope: guided replay: ${reason}. The server will likely refuse it; the request is sent all the same.`,
                ),
            });
            out.push(replay);
            if (error?.kind === 'aborted') break;
            if (error)
              void vscode.window.showWarningMessage(
                `Toolscope: replay (guided ${on ? 'on' : 'off'}) ${error.message}. The partial result is kept.`,
              );
          }
          if (out.length) await appendRecords(outPath, out, [uri.fsPath]);
          return out;
        } finally {
          await embedded?.close();
        }
      },
    );
    if (!written.length) return;
    this.output.appendLine(`Replay of ${record.id} (${basename(uri.fsPath)}) → ${outPath}`);
    for (const r of [record, ...written]) {
      const a = analyzer.analyze({ record: r, line: 0, lastLine: 0, source: 'native' });
      const label = r === record ? 'recorded  ' : `guided ${r.meta?.guided ? 'on ' : 'off'}`;
      this.output.appendLine(
        `  ${label} ${a.calls.map((c) => `${c.name}(${c.arguments})`).join(', ') || '(no calls)'}  ${a.diagnostics
          .filter((d) => d.severity !== 'info')
          .map((d) => d.kind)
          .join(', ')}`,
      );
    }
    const replays = vscode.Uri.file(outPath);
    await vscode.commands.executeCommand('vscode.openWith', replays, TRACE_VIEW_TYPE, vscode.ViewColumn.Beside);
    // The newest replay, on its Compare tab: the recording and the replays side by side, with a diff.
    revealInTrace(replays, (written[written.length - 1] as TraceRecord).id, 'compare');
    this.output.show(true);
  }
}

export function activeTrace(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (tab instanceof vscode.TabInputCustom && tab.viewType === TRACE_VIEW_TYPE) return tab.uri;
  const doc = vscode.window.activeTextEditor?.document.uri;
  return doc !== undefined && isTraceFileName(doc.fsPath) ? doc : undefined;
}

async function pickRecord(records: TraceRecord[]): Promise<TraceRecord | undefined> {
  if (records.length === 1) return records[0];
  const pick = await vscode.window.showQuickPick(
    records.map((r) => ({ label: r.id, description: r.request?.model ?? '', record: r })),
    { title: 'Replay which record?', matchOnDescription: true },
  );
  return pick?.record;
}

export async function pickEndpoint(title = 'Replay against which endpoint?'): Promise<Endpoint | typeof EMBEDDED_ENDPOINT | undefined> {
  const { endpoints, problems } = configuredEndpoints();
  if (problems.length) void vscode.window.showWarningMessage(`Toolscope: ${problems.join('; ')}`);
  const items = [
    {
      label: 'Embedded endpoint',
      description: "Toolscope's loopback simulator (no network)",
      value: EMBEDDED_ENDPOINT as Endpoint | typeof EMBEDDED_ENDPOINT,
    },
    ...endpoints.map((e) => ({
      label: e.name,
      description: `${e.baseUrl} · ${e.model} · ${e.engine}`,
      value: e as Endpoint | typeof EMBEDDED_ENDPOINT,
    })),
  ];
  const pick = await vscode.window.showQuickPick(items, { title });
  return pick?.value;
}
