/**
 * A record's raw JSON opened from the trace editor ("Raw JSON"): a read-only virtual document, so it opens beside
 * the trace without becoming an untitled file that asks to be saved, and shows the same JSON however often it
 * is opened (credentials redacted by the record view).
 */
import * as vscode from 'vscode';

export const RAW_SCHEME = 'toolscope-raw';
/** Contents by URI; a few recent records are enough (each open replaces its own entry). */
const contents = new Map<string, string>();
const LIMIT = 32;

export function rawRecordUri(traceName: string, recordId: string, key: string): vscode.Uri {
  // The path is what the tab shows; the query keeps records of the same id in different traces apart.
  const safe = `${traceName} · ${recordId}`.replace(/[\\/?#%]/g, '_').slice(0, 120);
  return vscode.Uri.from({ scheme: RAW_SCHEME, path: `/${safe}.json`, query: `${traceName}:${key}` });
}

export function setRawContent(uri: vscode.Uri, json: string): void {
  contents.delete(uri.toString());
  contents.set(uri.toString(), json);
  if (contents.size > LIMIT) contents.delete(contents.keys().next().value as string);
}

export function registerRawRecordDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(RAW_SCHEME, {
    provideTextDocumentContent: (uri) =>
      contents.get(uri.toString()) ?? '// This record is no longer in memory: open it again from the trace editor.',
  });
}
