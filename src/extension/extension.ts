/** Extension entry: registers commands; everything else lives in src/core. */
import * as vscode from 'vscode';
import { AnalyzeTraceCommand } from './analyzeTraceCommand.ts';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Toolscope');
  const problems = vscode.languages.createDiagnosticCollection('toolscope');
  const analyze = new AnalyzeTraceCommand(output, problems);
  context.subscriptions.push(
    output,
    problems,
    vscode.commands.registerCommand('toolscope.analyzeActiveFile', (uri?: vscode.Uri) => analyze.run(uri)),
  );
}

export function deactivate(): void {}
