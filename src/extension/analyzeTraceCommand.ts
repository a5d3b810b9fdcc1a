/**
 * "Toolscope: Analyze Trace": runs the core analysis on a trace file, writes the readable report to the
 * Toolscope output channel and puts every finding in the Problems panel at its record's line.
 */
import * as vscode from 'vscode';
import { Analyzer } from '../core/analysis.ts';
import type { Severity } from '../core/diagnostics/diagnostic.ts';
import { TraceIndex } from '../io/trace/traceIndex.ts';
import { TRACE_EXTENSIONS, isTraceFileName } from '../core/trace/traceFileNames.ts';
import { HumanReport } from '../host/report/humanReport.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';
import { analysisSettingsFor } from './analysisSettings.ts';
import { nodeServices } from '../io/nodeServices.ts';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class AnalyzeTraceCommand {
  constructor(
    private readonly output: vscode.OutputChannel,
    private readonly problems: vscode.DiagnosticCollection,
  ) {}

  /** `target` comes from the explorer or editor-title menu; otherwise the active editor's file. */
  async run(target?: vscode.Uri): Promise<void> {
    const uri = target ?? vscode.window.activeTextEditor?.document.uri ?? activeTraceEditor();
    if (!uri || !isTraceFileName(uri.fsPath)) {
      void vscode.window.showErrorMessage(
        `Toolscope: open a trace (${TRACE_EXTENSIONS.join(' ')}), or pick one in the explorer, to analyse it.`,
      );
      return;
    }
    if (uri.scheme !== 'file') {
      void vscode.window.showErrorMessage(`Toolscope reads traces from disk by byte offset; ${uri.scheme}: files are not supported.`);
      return;
    }
    const stats = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Toolscope: analysing ${vscode.workspace.asRelativePath(uri)}`,
        cancellable: true,
      },
      (progress, token) => this.analyze(uri, progress, token),
    );
    if (!stats) return;
    const summary = `${stats.records} records, ${stats.unreadable} unreadable lines: ${stats.errors} errors, ${stats.warnings} warnings.`;
    const choice = await vscode.window.showInformationMessage(`Toolscope: ${summary}`, 'Show Report', 'Show Problems');
    if (choice === 'Show Report') this.output.show(true);
    if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
  }

  private async analyze(
    uri: vscode.Uri,
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<{ records: number; unreadable: number; errors: number; warnings: number } | null> {
    let index: TraceIndex;
    try {
      index = await TraceIndex.open(uri.fsPath);
    } catch (err) {
      void vscode.window.showErrorMessage(`Toolscope: cannot read ${uri.fsPath}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
    try {
      const analyzer = new Analyzer(await analysisSettingsFor(uri), nodeServices());
      this.output.clear();
      const report = new HumanReport((line) => this.output.appendLine(line), terminalStyle({ isTTY: false }), false);
      report.file(vscode.workspace.asRelativePath(uri));
      const problems: vscode.Diagnostic[] = [];
      let records = 0;
      let unreadable = 0;
      let errors = 0;
      let warnings = 0;
      const total = index.count;
      let reported = 0;
      for (let i = 0; i < total; i++) {
        if (token.isCancellationRequested) {
          this.output.appendLine(`(cancelled after ${i} of ${total} entries)`);
          break;
        }
        const { records: loaded, errors: lineErrors } = await index.read(i);
        for (const e of lineErrors) {
          unreadable++;
          report.error(e);
          problems.push(new vscode.Diagnostic(lineRange(e.line), `unreadable line: ${e.message}`, vscode.DiagnosticSeverity.Error));
        }
        for (const l of loaded) {
          records++;
          const outcome = await analyzer.analyzeGuarded(l);
          if (outcome.kind === 'error') {
            unreadable++;
            report.error(outcome.error);
            problems.push(new vscode.Diagnostic(lineRange(l.line), outcome.error.message, vscode.DiagnosticSeverity.Error));
            continue;
          }
          const analysed = outcome.analysed;
          report.record(analysed);
          for (const d of analysed.diagnostics) {
            if (d.severity === 'error') errors++;
            if (d.severity === 'warning') warnings++;
            const problem = new vscode.Diagnostic(lineRange(l.line), `${d.message} (record ${analysed.id})`, SEVERITY[d.severity]);
            problem.code = d.code;
            problem.source = `toolscope ${d.kind}`;
            problems.push(problem);
          }
        }
        const pct = Math.floor(((i + 1) / total) * 100);
        if (pct > reported) {
          progress.report({ increment: pct - reported, message: `${i + 1} / ${total}` });
          reported = pct;
        }
      }
      report.summary();
      this.problems.set(uri, problems);
      return { records, unreadable, errors, warnings };
    } finally {
      await index.close();
    }
  }
}

function lineRange(line: number): vscode.Range {
  return new vscode.Range(line - 1, 0, line - 1, Number.MAX_SAFE_INTEGER);
}

/** The trace in the active Toolscope editor (the palette and the walkthrough run the command with no file). */
function activeTraceEditor(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom ? input.uri : undefined;
}
