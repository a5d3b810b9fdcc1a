/**
 * Extension entry: registers the trace editor and commands; everything else lives in src/core. What the trace
 * editor's first paint does not need is loaded when its command first runs: replay, Evaluate Samples… and the
 * recording proxy bring the HTTP client (undici) and servers, about a third of the bundle's code, whose evaluation
 * the extension's activation (and so the first trace's paint) waited for.
 */
import { TRACE_EXTENSIONS, isTraceFileName } from '../core/trace/traceFileNames.ts';
import * as vscode from 'vscode';
import { AnalyzeTraceCommand } from './analyzeTraceCommand.ts';
import { TRACE_VIEW_TYPE, TraceEditorProvider } from './traceEditorProvider.ts';
import { ApiKeys } from './endpoints.ts';
import type { ReplayTarget } from './replayRecordCommand.ts';
import type { RecordingProxyCommand } from './recordingProxyCommand.ts';
import { openSample, registerStepCommands } from './walkthroughCommands.ts';
import { openClipboardTrace } from './openClipboardCommand.ts';
import { openMark } from './openMarks.ts';
import { OPEN_RECORDING_COMMAND } from './recordingCommandIds.ts';

// For the entry (extensionEntry.ts), which loads this bundle through the code cache: the bundle's own copy of the state.
export { afterFirstTraceOpen } from './firstTraceOpen.ts';

export function activate(context: vscode.ExtensionContext): void {
  openMark('activate');
  const output = vscode.window.createOutputChannel('Toolscope');
  const problems = vscode.languages.createDiagnosticCollection('toolscope');
  const analyze = new AnalyzeTraceCommand(output, problems);
  const keys = new ApiKeys(context.secrets);
  const version = (context.extension.packageJSON as { version?: unknown }).version;
  const replay = lazily(() => import('./replayRecordCommand.ts').then((m) => new m.ReplayRecordCommand(keys, output)));
  const evaluate = lazily(() =>
    import('./evaluateSamplesCommand.ts').then(
      (m) => new m.EvaluateSamplesCommand(keys, output, typeof version === 'string' ? version : 'dev'),
    ),
  );
  // Its status bar item shows only while it records: nothing of it is needed before its first command.
  let recorder: Promise<RecordingProxyCommand> | undefined;
  const recording = () => (recorder ??= import('./recordingProxyCommand.ts').then((m) => new m.RecordingProxyCommand(keys, output)));
  context.subscriptions.push(
    output,
    problems,
    TraceEditorProvider.register(context),
    vscode.commands.registerCommand('toolscope.replayRecord', async (arg?: vscode.Uri | ReplayTarget) =>
      (await replay()).run(arg instanceof vscode.Uri ? { uri: arg } : arg),
    ),
    vscode.commands.registerCommand('toolscope.setApiKey', () => keys.prompt()),
    vscode.commands.registerCommand('toolscope.evaluateSamples', async (uri?: vscode.Uri) => (await evaluate()).run(uri)),
    { dispose: () => void recorder?.then((r) => r.dispose()) },
    vscode.commands.registerCommand('toolscope.startRecordingProxy', async () => (await recording()).start()),
    vscode.commands.registerCommand('toolscope.stopRecordingProxy', async () => (await recording()).stop()),
    vscode.commands.registerCommand(OPEN_RECORDING_COMMAND, async () => (await recording()).openTrace()),
    vscode.commands.registerCommand('toolscope.analyzeActiveFile', (uri?: vscode.Uri) => analyze.run(uri)),
    vscode.commands.registerCommand('toolscope.openSample', (name?: unknown) => openSample(context, name)),
    vscode.commands.registerCommand('toolscope.openClipboard', () => openClipboardTrace(context)),
    ...registerStepCommands(),
    vscode.commands.registerCommand('toolscope.openTrace', async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target || !isTraceFileName(target.fsPath)) {
        const picked = await vscode.window.showOpenDialog({
          filters: { Traces: TRACE_EXTENSIONS.map((e) => e.slice(1)) },
          canSelectMany: false,
        });
        if (!picked?.[0]) return;
        await vscode.commands.executeCommand('vscode.openWith', picked[0], TRACE_VIEW_TYPE);
        return;
      }
      await vscode.commands.executeCommand('vscode.openWith', target, TRACE_VIEW_TYPE);
    }),
  );
  openMark('activated');
}

/** `make()` once, on first use. */
function lazily<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

export function deactivate(): void {}
