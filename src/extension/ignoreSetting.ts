/** The `toolscope.ignoreFindings` setting: diagnostic kinds the user expects and silences (counted, not listed). */
import * as vscode from 'vscode';
import { DIAGNOSTIC_KINDS, type DiagnosticKind } from '../core/diagnostics/registry.ts';

export const IGNORE_SETTING = 'toolscope.ignoreFindings';

const warned = new Set<string>();

/** The kinds to ignore for traces at `uri`; names that are no kind are reported once and skipped. */
export function ignoreSettingFor(uri: vscode.Uri): DiagnosticKind[] | undefined {
  const value = vscode.workspace.getConfiguration('toolscope', uri).get<unknown>('ignoreFindings');
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const kinds = value.filter((k): k is DiagnosticKind => typeof k === 'string' && k in DIAGNOSTIC_KINDS);
  const unknown = value.filter((k) => !(typeof k === 'string' && k in DIAGNOSTIC_KINDS)).map((k) => String(k));
  const key = unknown.join(',');
  if (unknown.length && !warned.has(key)) {
    warned.add(key);
    void vscode.window.showWarningMessage(
      `Toolscope: ${IGNORE_SETTING} names ${unknown.map((k) => `"${k}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a diagnostic kind' : 'are not diagnostic kinds'}; ${unknown.length === 1 ? 'it is' : 'they are'} skipped.`,
    );
  }
  return kinds.length ? kinds : undefined;
}
