/**
 * "Toolscope: Open Trace from Clipboard": a snippet copied from an issue thread (any trace shape, or a bare raw
 * completion) opened in the trace editor in two keystrokes. The trace reader indexes files by byte offset, so the
 * text is first written to a file in the extension's global storage (`pasted/clipboard-<time>.txt`, readable by
 * the user only); the newest PASTE_KEEP pastes are kept, older ones removed. The editor is read-only, as always.
 */
import * as vscode from 'vscode';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TRACE_VIEW_TYPE } from './traceEditorProvider.ts';

export const PASTE_KEEP = 20;

/** `2025-10-21T09:08:07` with `-` for `:` (file names), from UTC. */
function stamp(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/:/g, '-');
}

export async function openClipboardTrace(
  context: Pick<vscode.ExtensionContext, 'globalStorageUri'>,
  now = new Date(),
): Promise<vscode.Uri | undefined> {
  const text = await vscode.env.clipboard.readText();
  if (text.trim() === '') {
    void vscode.window.showInformationMessage(
      'Toolscope: the clipboard is empty. Copy a trace (JSON lines, an SSE dump, a printout) first.',
    );
    return undefined;
  }
  const dir = vscode.Uri.joinPath(context.globalStorageUri, 'pasted');
  await mkdir(dir.fsPath, { recursive: true });
  let name = `clipboard-${stamp(now)}.txt`;
  const existing = new Set(await readdir(dir.fsPath));
  for (let n = 2; existing.has(name); n++) name = `clipboard-${stamp(now)}-${n}.txt`;
  const file = vscode.Uri.joinPath(dir, name);
  await writeFile(file.fsPath, text, { encoding: 'utf8', mode: 0o600 });
  await prune(dir.fsPath);
  await vscode.commands.executeCommand('vscode.openWith', file, TRACE_VIEW_TYPE);
  return file;
}

/** Keeps the newest PASTE_KEEP pasted files (their names sort by time). */
async function prune(dir: string): Promise<void> {
  const pasted = (await readdir(dir)).filter((f) => f.startsWith('clipboard-') && f.endsWith('.txt')).sort();
  for (const old of pasted.slice(0, Math.max(0, pasted.length - PASTE_KEEP))) await rm(join(dir, old), { force: true });
}
