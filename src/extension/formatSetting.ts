/** The `toolscope.format` setting: the tool-call format the trace editor and Analyze Trace read traces in. */
import * as vscode from 'vscode';
import { formatFromSetting } from '../core/formats/resolveFormat.ts';
import { formatNames } from '../core/formats/registry.ts';

export const FORMAT_SETTING = 'toolscope.format';

const warned = new Set<string>();

/** The format for traces at `uri` (undefined: per record); an unknown value is reported once and read as `auto`. */
export function formatSettingFor(uri: vscode.Uri): string | undefined {
  const { format, invalid } = formatFromSetting(vscode.workspace.getConfiguration('toolscope', uri).get<unknown>('format'));
  if (invalid !== null && !warned.has(invalid)) {
    warned.add(invalid);
    void vscode.window.showWarningMessage(
      `Toolscope: the setting ${FORMAT_SETTING} is "${invalid}", which is not a format (known: auto, ${formatNames().join(', ')}). Detecting the format per record.`,
    );
  }
  return format;
}
