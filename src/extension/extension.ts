/** Extension entry: registers the trace editor and commands; everything else lives in src/core. */
import { TRACE_EXTENSIONS, isTraceFileName } from '../core/trace/traceFileNames.ts';
import * as vscode from 'vscode';
import { AnalyzeTraceCommand } from './analyzeTraceCommand.ts';
import { TRACE_VIEW_TYPE, TraceEditorProvider } from './traceEditorProvider.ts';
import { ApiKeys } from './endpoints.ts';
import { ReplayRecordCommand, type ReplayTarget } from './replayRecordCommand.ts';
import { EvaluateSamplesCommand } from './evaluateSamplesCommand.ts';
import { openSample, registerStepCommands } from './walkthroughCommands.ts';
import { openClipboardTrace } from './openClipboardCommand.ts';
import { OPEN_RECORDING_COMMAND, RecordingProxyCommand } from './recordingProxyCommand.ts';
import { openMark } from './openMarks.ts';

export function activate(context: vscode.ExtensionContext): void {
  openMark('activate');
  const output = vscode.window.createOutputChannel('Toolscope');
  const problems = vscode.languages.createDiagnosticCollection('toolscope');
  const analyze = new AnalyzeTraceCommand(output, problems);
  const keys = new ApiKeys(context.secrets);
  const replay = new ReplayRecordCommand(keys, output);
  const version = (context.extension.packageJSON as { version?: unknown }).version;
  const evaluate = new EvaluateSamplesCommand(keys, output, typeof version === 'string' ? version : 'dev');
  const recorder = new RecordingProxyCommand(keys, output);
  context.subscriptions.push(
    output,
    problems,
    TraceEditorProvider.register(context),
    vscode.commands.registerCommand('toolscope.replayRecord', (arg?: vscode.Uri | ReplayTarget) =>
      replay.run(arg instanceof vscode.Uri ? { uri: arg } : arg),
    ),
    vscode.commands.registerCommand('toolscope.setApiKey', () => keys.prompt()),
    vscode.commands.registerCommand('toolscope.evaluateSamples', (uri?: vscode.Uri) => evaluate.run(uri)),
    recorder,
    vscode.commands.registerCommand('toolscope.startRecordingProxy', () => recorder.start()),
    vscode.commands.registerCommand('toolscope.stopRecordingProxy', () => recorder.stop()),
    vscode.commands.registerCommand(OPEN_RECORDING_COMMAND, () => recorder.openTrace()),
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

export function deactivate(): void {}
