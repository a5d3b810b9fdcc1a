/**
 * The `toolscope.tokenizer` setting: per format or model name (or `*` for any record), a path to the model's
 * folder or tokenizer file. Read from the user's own settings only (userSettings.ts), like every path setting here,
 * so a cloned workspace cannot point it elsewhere. Problems with the files are shown per record (the header's "tokens: approximate — …"), not here.
 */
import * as vscode from 'vscode';
import type { TokenizerPaths } from '../core/formats/tokenizerChoice.ts';
import { userSetting } from './userSettings.ts';

export const TOKENIZER_SETTING = 'toolscope.tokenizer';

/** The same for every file (the user's setting); `_uri` is kept for the callers that ask per trace. */
export function tokenizerSettingFor(_uri?: vscode.Uri): TokenizerPaths | undefined {
  const value = userSetting<unknown>('tokenizer').value;
  // A single path (hand-edited settings.json) applies to every record.
  if (typeof value === 'string') return value.trim() ? { any: value } : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const byName: Record<string, string> = {};
  let any: string | undefined;
  for (const [name, path] of Object.entries(value)) {
    if (typeof path !== 'string' || path.trim() === '') continue;
    if (name === '*') any = path;
    else byName[name] = path;
  }
  return { byName, ...(any !== undefined ? { any } : {}) };
}
