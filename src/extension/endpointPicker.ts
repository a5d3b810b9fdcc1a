/**
 * The endpoint picker of Replay Record, Evaluate Samples… and the recording proxy: the embedded simulator and the
 * user's endpoints, and — as rows of their own — the endpoints skipped and why, or, with none set, where to add one.
 * Picking such a row opens the setting. It stays open when an editor takes the focus (ignoreFocusOut): an editor that
 * finishes opening meanwhile would otherwise close it, and the command with it.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../net/replay/endpoint.ts';
import { configuredEndpoints, EMBEDDED_ENDPOINT, ENDPOINTS_SETTING } from './endpoints.ts';

export type EndpointChoice = Endpoint | typeof EMBEDDED_ENDPOINT;

const OPEN_SETTINGS = Symbol('open settings');

export async function pickEndpoint(title = 'Replay against which endpoint?'): Promise<EndpointChoice | undefined> {
  const { endpoints, skipped } = configuredEndpoints();
  const items: Array<vscode.QuickPickItem & { value: EndpointChoice | typeof OPEN_SETTINGS }> = [
    { label: 'Embedded endpoint', description: "Toolscope's loopback simulator (no network)", value: EMBEDDED_ENDPOINT },
    ...endpoints.map((e) => ({ label: e.name, description: `${e.baseUrl} · ${e.model} · ${e.engine}`, value: e })),
    ...skipped.map((why) => ({ label: '$(warning) Skipped', description: why, value: OPEN_SETTINGS as typeof OPEN_SETTINGS })),
  ];
  if (!endpoints.length && !skipped.length)
    items.push({
      label: '$(gear) Add your endpoint',
      description: `${ENDPOINTS_SETTING} in your User settings`,
      value: OPEN_SETTINGS,
    });
  const pick = await vscode.window.showQuickPick(items, {
    title,
    ignoreFocusOut: true,
    ...(skipped.length ? { placeHolder: `${skipped.length} skipped (see the rows below)` } : {}),
  });
  if (pick?.value === OPEN_SETTINGS) {
    void vscode.commands.executeCommand('workbench.action.openSettings', ENDPOINTS_SETTING);
    return undefined;
  }
  return pick?.value;
}
