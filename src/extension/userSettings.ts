/**
 * Settings Toolscope takes from the user's own settings only: where replays go (`toolscope.endpoints`, whose requests
 * carry the user's stored API key) and the paths and port of this user's machine (`tokenizer`, `chatTemplate`,
 * `proxyPort`). They are `application` settings, so the Settings UI's User tab lists them in a local, Remote or
 * code-server window alike (a `machine` setting is missing there in the last two), and they are read from the user
 * value alone: a workspace or folder value — a cloned repository's `.vscode/settings.json` — is never read, only
 * reported as skipped.
 */
import * as vscode from 'vscode';

export interface UserSettingRead<T> {
  /** The user's own value (undefined: not set there; the contributed default is the caller's). */
  value: T | undefined;
  /** Where else the setting was found and not read ("workspace settings", "folder settings"). */
  skipped: string[];
}

export function userSetting<T>(key: string): UserSettingRead<T> {
  const found = vscode.workspace.getConfiguration('toolscope').inspect<T>(key);
  const skipped: string[] = [];
  if (found?.workspaceValue !== undefined) skipped.push('workspace settings');
  if (found?.workspaceFolderValue !== undefined) skipped.push('folder settings');
  return { value: found?.globalValue, skipped };
}
