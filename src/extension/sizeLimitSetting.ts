/** The `toolscope.maxCompletionMB` setting: the size above which a completion is analysed without per-token detail. */
import * as vscode from 'vscode';

export const MAX_COMPLETION_SETTING = 'toolscope.maxCompletionMB';

/** The limit for traces at `uri` in million characters; undefined (the default) when unset or not a positive number. */
export function maxCompletionMBFor(uri: vscode.Uri): number | undefined {
  const value = vscode.workspace.getConfiguration('toolscope', uri).get<unknown>('maxCompletionMB');
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
