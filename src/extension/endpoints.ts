/**
 * Endpoints from the user's own `toolscope.endpoints` setting (userSettings.ts: never a workspace's, so a cloned
 * repository cannot redirect replays that carry the user's key), their API keys from SecretStorage (never settings,
 * traces or logs), and what was skipped and why, for the endpoint pickers to say.
 */
import * as vscode from 'vscode';
import { ENGINES, normalizeBaseUrl, type Endpoint, type Engine } from '../net/replay/endpoint.ts';
import { userSetting } from './userSettings.ts';

export const EMBEDDED_ENDPOINT = 'embedded';
export const ENDPOINTS_SETTING = 'toolscope.endpoints';

function secretKey(name: string): string {
  return `toolscope.apiKey.${name}`;
}

export interface ConfiguredEndpoints {
  endpoints: Endpoint[];
  /** Entries or values not used, each with why ("toolscope.endpoints[1] needs …", "… in workspace settings: not read …"). */
  skipped: string[];
}

/** The endpoints in a user value of the setting, and the entries skipped with why (pure: tests feed it values). */
export function endpointsFromSetting(raw: unknown): ConfiguredEndpoints {
  const endpoints: Endpoint[] = [];
  const skipped: string[] = [];
  if (raw !== undefined && !Array.isArray(raw)) skipped.push(`${ENDPOINTS_SETTING} is not a list`);
  for (const [i, e] of (Array.isArray(raw) ? raw : []).entries()) {
    const o = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    const label = typeof o.name === 'string' ? `"${o.name}" (${ENDPOINTS_SETTING}[${i}])` : `${ENDPOINTS_SETTING}[${i}]`;
    if (typeof o.name !== 'string' || typeof o.baseUrl !== 'string') {
      skipped.push(`${label} needs "name" and "baseUrl"`);
      continue;
    }
    if (o.name === EMBEDDED_ENDPOINT || endpoints.some((x) => x.name === o.name)) {
      skipped.push(`${label}: the name is taken`);
      continue;
    }
    if (o.engine !== undefined && !(ENGINES as readonly unknown[]).includes(o.engine)) {
      skipped.push(`${label}: engine "${String(o.engine)}" is not one of ${ENGINES.join(', ')}`);
      continue;
    }
    try {
      endpoints.push({
        name: o.name,
        baseUrl: normalizeBaseUrl(o.baseUrl),
        model: typeof o.model === 'string' ? o.model : 'default',
        engine: (o.engine as Engine | undefined) ?? 'vllm',
      });
    } catch {
      skipped.push(`${label}: "${o.baseUrl}" is not a URL`);
    }
  }
  return { endpoints, skipped };
}

/** The user's endpoints; a workspace or folder value is named as skipped, never read. */
export function configuredEndpoints(): ConfiguredEndpoints {
  const { value, skipped: elsewhere } = userSetting<unknown>('endpoints');
  const read = endpointsFromSetting(value);
  for (const where of elsewhere)
    read.skipped.push(`${ENDPOINTS_SETTING} in ${where}: not read (replays carry your API key; set endpoints in your User settings)`);
  return read;
}

export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(endpoint: string): Thenable<string | undefined> {
    return this.secrets.get(secretKey(endpoint));
  }

  async prompt(): Promise<void> {
    const { endpoints, skipped } = configuredEndpoints();
    if (!endpoints.length) {
      void vscode.window
        .showWarningMessage(
          `Toolscope: add an endpoint to the "${ENDPOINTS_SETTING}" User setting first.${skipped.length ? ` Skipped: ${skipped.join('; ')}.` : ''}`,
          'Open Settings',
        )
        .then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.action.openSettings', ENDPOINTS_SETTING);
        });
      return;
    }
    const pick = await vscode.window.showQuickPick(
      endpoints.map((e) => ({ label: e.name, description: e.baseUrl })),
      { title: 'Set the API key for which endpoint?', ignoreFocusOut: true },
    );
    if (!pick) return;
    const key = await vscode.window.showInputBox({
      title: `API key for ${pick.label}`,
      password: true,
      ignoreFocusOut: true,
      prompt: 'Stored in VS Code SecretStorage; leave empty to remove it.',
    });
    if (key === undefined) return;
    if (key === '') await this.secrets.delete(secretKey(pick.label));
    else await this.secrets.store(secretKey(pick.label), key);
    void vscode.window.showInformationMessage(`Toolscope: API key for ${pick.label} ${key === '' ? 'removed' : 'saved'}.`);
  }
}
