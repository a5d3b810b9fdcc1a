/**
 * Endpoints from the `toolscope.endpoints` setting (machine scope: a cloned repo's workspace settings cannot
 * redirect replays) and their API keys from SecretStorage (never settings, traces or logs).
 */
import * as vscode from 'vscode';
import { ENGINES, normalizeBaseUrl, type Endpoint, type Engine } from '../net/replay/endpoint.ts';

export const EMBEDDED_ENDPOINT = 'embedded';

function secretKey(name: string): string {
  return `toolscope.apiKey.${name}`;
}

export function configuredEndpoints(): { endpoints: Endpoint[]; problems: string[] } {
  const raw = vscode.workspace.getConfiguration('toolscope').get<unknown[]>('endpoints', []);
  const endpoints: Endpoint[] = [];
  const problems: string[] = [];
  for (const [i, e] of (Array.isArray(raw) ? raw : []).entries()) {
    const o = (e ?? {}) as Record<string, unknown>;
    if (typeof o.name !== 'string' || typeof o.baseUrl !== 'string') {
      problems.push(`toolscope.endpoints[${i}] needs "name" and "baseUrl"`);
      continue;
    }
    const engine = typeof o.engine === 'string' && (ENGINES as readonly string[]).includes(o.engine) ? (o.engine as Engine) : 'vllm';
    try {
      endpoints.push({
        name: o.name,
        baseUrl: normalizeBaseUrl(o.baseUrl),
        model: typeof o.model === 'string' ? o.model : 'default',
        engine,
      });
    } catch {
      problems.push(`toolscope.endpoints[${i}]: "${o.baseUrl}" is not a URL`);
    }
  }
  return { endpoints, problems };
}

export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(endpoint: string): Thenable<string | undefined> {
    return this.secrets.get(secretKey(endpoint));
  }

  async prompt(): Promise<void> {
    const { endpoints } = configuredEndpoints();
    if (!endpoints.length) {
      void vscode.window
        .showWarningMessage('Toolscope: add an endpoint to the "toolscope.endpoints" user setting first.', 'Open Settings')
        .then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.action.openSettings', 'toolscope.endpoints');
        });
      return;
    }
    const pick = await vscode.window.showQuickPick(
      endpoints.map((e) => ({ label: e.name, description: e.baseUrl })),
      { title: 'Set the API key for which endpoint?' },
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
