/**
 * The commands behind the getting-started walkthrough and the stepping keybindings.
 *
 * Stepping: the trace editor's webview owns its keys while it has focus (←/→, n/p, e/E… in webview/stepping.ts),
 * and VS Code forwards every key pressed in a webview to the workbench's keybindings as well. So the contributed
 * keybindings use keys the webview ignores (F10, F9, F8, with Shift for back): a key then acts exactly once, through
 * the command, whether or not the webview has focus. The command posts a `step` event to the active trace editor.
 */
import * as vscode from 'vscode';
import { isTraceFileName } from '../core/trace/traceFileNames.ts';
import type { StepCommand } from '../shared/protocol.ts';
import { postToActiveTrace, TRACE_VIEW_TYPE } from './traceEditorProvider.ts';

export const STEP_COMMANDS: Readonly<Record<string, StepCommand>> = {
  'toolscope.nextToken': 'next',
  'toolscope.previousToken': 'prev',
  'toolscope.nextToolCall': 'nextCall',
  'toolscope.previousToolCall': 'prevCall',
  'toolscope.nextDiagnostic': 'nextDiag',
  'toolscope.previousDiagnostic': 'prevDiag',
};

export function registerStepCommands(): vscode.Disposable[] {
  return Object.entries(STEP_COMMANDS).map(([command, action]) =>
    vscode.commands.registerCommand(command, () => {
      if (!postToActiveTrace({ type: 'step', action }))
        void vscode.window.showInformationMessage('Toolscope: open a trace in the Toolscope editor to step through it.');
    }),
  );
}

/** The sample the walkthrough opens. */
export const DEFAULT_SAMPLE = 'kimi-k2-raw-completions.jsonl';

/**
 * Opens one of the bundled samples in the trace editor: a copy in the extension's global storage, so replays are
 * written beside the copy and never into the installed extension. Without a name, asks which one.
 */
export async function openSample(context: vscode.ExtensionContext, name?: unknown): Promise<vscode.Uri | undefined> {
  const bundled = vscode.Uri.joinPath(context.extensionUri, 'samples');
  const samples = (await vscode.workspace.fs.readDirectory(bundled))
    .filter(([n, type]) => type === vscode.FileType.File && isTraceFileName(n))
    .map(([n]) => n)
    .sort((a, b) => (a === DEFAULT_SAMPLE ? -1 : b === DEFAULT_SAMPLE ? 1 : a.localeCompare(b)));
  let pick = typeof name === 'string' && samples.includes(name) ? name : undefined;
  if (!pick) {
    const item = await vscode.window.showQuickPick(
      samples.map((s) => ({ label: s, description: s === DEFAULT_SAMPLE ? 'Kimi K2 raw completions: one record per failure' : undefined })),
      { title: 'Open which sample trace?' },
    );
    pick = item?.label;
  }
  if (!pick) return undefined;
  const dir = vscode.Uri.joinPath(context.globalStorageUri, 'samples');
  await vscode.workspace.fs.createDirectory(dir);
  const copy = vscode.Uri.joinPath(dir, pick);
  await vscode.workspace.fs.copy(vscode.Uri.joinPath(bundled, pick), copy, { overwrite: true });
  await vscode.commands.executeCommand('vscode.openWith', copy, TRACE_VIEW_TYPE);
  return copy;
}
