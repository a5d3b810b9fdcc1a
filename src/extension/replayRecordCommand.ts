/**
 * "Toolscope: Replay Record": the record (the one open in the trace editor first), the endpoint, chat or completions
 * mode and guided off/on/both are picked here; the run itself is net/replay/replayRun.ts, the same as
 * `toolscope replay`. The replays are appended beside the trace and opened next to it: a completions-mode answer on
 * its timeline, where it can be stepped to the token where guided on parts from guided off; a chat answer on Compare.
 * Refused in untrusted workspaces.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ReplayMode } from '../net/replay/replay.ts';
import { isReplayable, runReplay, RunSetupError, type GuidedChoice, type RunTarget } from '../net/replay/replayRun.ts';
import { loadAll } from '../io/trace/loadTrace.ts';
import type { LoadedRecord, TraceRecord } from '../core/trace/record.ts';
import { isTraceFileName } from '../core/trace/traceFileNames.ts';
import { ApiKeys, EMBEDDED_ENDPOINT } from './endpoints.ts';
import { pickEndpoint } from './endpointPicker.ts';
import { revealInTrace, shownRecordId, TRACE_VIEW_TYPE } from './traceEditorProvider.ts';
import { templateSettingFor } from './templateSetting.ts';
import { trustedFor } from './workspaceTrust.ts';

export interface ReplayTarget {
  uri?: vscode.Uri;
  recordId?: string;
}

/** The editor's replay settings beside the CLI's defaults: the same per-replay bound and retries. */
const TIMEOUT_MS = 600_000;
const RETRIES = 2;

export class ReplayRecordCommand {
  constructor(
    private readonly keys: ApiKeys,
    private readonly output: vscode.OutputChannel,
  ) {}

  async run(target: ReplayTarget = {}): Promise<void> {
    if (!trustedFor('replay', "it sends the trace's requests to a server", 'replay')) return;
    const uri = target.uri ?? activeTrace();
    if (!uri) {
      void vscode.window.showErrorMessage('Toolscope: open a .jsonl trace to replay one of its records.');
      return;
    }
    const { records } = await loadAll(uri.fsPath);
    const replayable = records.filter(isReplayable);
    if (!replayable.length) {
      void vscode.window.showErrorMessage(`Toolscope: no record in ${basename(uri.fsPath)} has a chat request to replay.`);
      return;
    }
    const original = target.recordId
      ? replayable.find((r) => r.record.id === target.recordId)
      : await pickRecord(replayable, shownRecordId(uri));
    if (!original) {
      if (target.recordId) void vscode.window.showErrorMessage(`Toolscope: record ${target.recordId} has no chat request to replay.`);
      return;
    }
    const endpointChoice = await pickEndpoint();
    if (!endpointChoice) return;
    const mode = await pickQuick<ReplayMode>('Replay mode', [
      { label: 'Completions', description: 'the raw answer with its tokens, to step through (/v1/completions)', value: 'completions' },
      { label: 'Chat', description: 'what a chat client gets (/v1/chat/completions)', value: 'chat' },
    ]);
    if (!mode) return;
    const guided = await pickQuick<GuidedChoice>('Guided decoding', [
      { label: 'Both', description: 'guided decoding off and on, side by side', value: 'both' },
      { label: 'Off', description: 'the plain request', value: 'off' },
      { label: 'On', description: 'strict tools / structural tag', value: 'on' },
    ]);
    if (!guided) return;
    const runTarget: RunTarget =
      endpointChoice === EMBEDDED_ENDPOINT
        ? { embedded: {} }
        : { endpoint: endpointChoice, apiKey: await this.keys.get(endpointChoice.name) };
    // Completions mode renders the prompt with the user's chat template when one is set, else the record's format's.
    const template = mode === 'completions' ? await templateSettingFor(uri) : undefined;
    let run;
    try {
      run = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Toolscope: replaying ${original.record.id}`, cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return runReplay({
            trace: uri.fsPath,
            records,
            chosen: [original],
            target: runTarget,
            guided,
            mode,
            template,
            timeoutMs: TIMEOUT_MS,
            retries: RETRIES,
            signal: abort.signal,
            onProgress: (message) => progress.report({ message }),
            onGuidedProblem: (_id, reason) =>
              void vscode.window.showWarningMessage(
                `Toolscope: guided replay: ${reason}. The server will likely refuse it; the request is sent all the same.`,
              ),
            onReplayed: ({ guided: on, error }) => {
              if (error && error.kind !== 'aborted')
                void vscode.window.showWarningMessage(
                  `Toolscope: replay (guided ${on ? 'on' : 'off'}) ${error.message}. The partial result is kept.`,
                );
            },
          });
        },
      );
    } catch (err) {
      if (!(err instanceof RunSetupError)) throw err;
      void vscode.window.showErrorMessage(`Toolscope: ${err.message}`);
      return;
    }
    const done = run.replayed[0];
    if (!done?.written.length) return;
    this.output.appendLine(`Replay of ${original.record.id} (${basename(uri.fsPath)}, ${mode} mode) → ${run.outPath}`);
    for (const { label, analyzed: a } of done.rows) {
      this.output.appendLine(
        `  ${label.padEnd(10)} ${a.calls.map((c) => `${c.name}(${c.arguments})`).join(', ') || '(no calls)'}  ${a.diagnostics
          .filter((d) => d.severity !== 'info')
          .map((d) => d.kind)
          .join(', ')}`,
      );
    }
    const replays = vscode.Uri.file(run.outPath);
    await vscode.commands.executeCommand('vscode.openWith', replays, TRACE_VIEW_TYPE, vscode.ViewColumn.Beside);
    // The newest replay: a completions answer on its timeline (with where it parts from the other guided setting's),
    // a chat answer on Compare (the recording and the replays side by side, with a diff).
    const newest = done.written[done.written.length - 1] as TraceRecord;
    revealInTrace(replays, newest.id, mode === 'completions' ? 'timeline' : 'compare');
    this.output.show(true);
  }
}

export function activeTrace(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (tab instanceof vscode.TabInputCustom && tab.viewType === TRACE_VIEW_TYPE) return tab.uri;
  const doc = vscode.window.activeTextEditor?.document.uri;
  return doc !== undefined && isTraceFileName(doc.fsPath) ? doc : undefined;
}

/** A quick pick that an editor finishing opening meanwhile does not close (see endpointPicker.ts). */
async function pickQuick<T>(title: string, items: Array<vscode.QuickPickItem & { value: T }>): Promise<T | undefined> {
  return (await vscode.window.showQuickPick(items, { title, ignoreFocusOut: true }))?.value;
}

/** The record to replay; the one open in the trace editor is offered first (Enter takes it). */
async function pickRecord(records: LoadedRecord[], shown: string | undefined): Promise<LoadedRecord | undefined> {
  if (records.length === 1) return records[0];
  const open = records.find((r) => r.record.id === shown);
  const ordered = open ? [open, ...records.filter((r) => r !== open)] : records;
  return pickQuick(
    'Replay which record?',
    ordered.map((r) => ({
      label: r.record.id,
      description: [r === open ? 'open in the editor' : '', r.record.request?.model ?? ''].filter(Boolean).join(' · '),
      value: r,
    })),
  );
}
