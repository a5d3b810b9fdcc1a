/**
 * The `toolscope.chatTemplate` setting: a path to the model's own chat template (its folder's
 * chat_template.jinja). Requests recorded without a prompt are rendered with it and the template checks run on
 * that; machine scope, like every path setting here, so a cloned workspace cannot point it elsewhere.
 */
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { userSetting } from './userSettings.ts';

export const TEMPLATE_SETTING = 'toolscope.chatTemplate';

const warned = new Set<string>();

export async function templateSettingFor(_uri?: vscode.Uri): Promise<{ source: string; label: string } | undefined> {
  const path = userSetting<unknown>('chatTemplate').value;
  if (typeof path !== 'string' || !path) return undefined;
  try {
    return { source: await readFile(path, 'utf8'), label: basename(path) };
  } catch (err) {
    if (!warned.has(path)) {
      warned.add(path);
      void vscode.window.showWarningMessage(
        `Toolscope: cannot read the chat template in ${TEMPLATE_SETTING} (${path}): ${err instanceof Error ? err.message : String(err)}. Requests are shown with Toolscope's own Kimi K2 template.`,
      );
    }
    return undefined;
  }
}
