/**
 * Endpoints and the machine's paths and port come from the user's own settings only: a workspace value of
 * `toolscope.endpoints` (a cloned repository's .vscode/settings.json) is never read — not by the endpoint picker,
 * not by a replay — and the picker says it was skipped and why, as it does for entries it cannot use. The manifest
 * makes these settings `application` ones, listed in the User tab of local, Remote and code-server windows alike.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fake, Uri, workspace } from './fakeVscode.ts';
import { configuredEndpoints, endpointsFromSetting } from '../../src/extension/endpoints.ts';
import { pickEndpoint } from '../../src/extension/endpointPicker.ts';
import { ApiKeys } from '../../src/extension/endpoints.ts';
import { ReplayRecordCommand } from '../../src/extension/replayRecordCommand.ts';
import { templateSettingFor } from '../../src/extension/templateSetting.ts';
import { tokenizerSettingFor } from '../../src/extension/tokenizerSetting.ts';
import { userSetting } from '../../src/extension/userSettings.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function reset(): void {
  fake.settings.clear();
  fake.workspaceSettings.clear();
  fake.picks.length = 0;
  fake.pickTitles.length = 0;
  fake.executed.length = 0;
  fake.warnings.length = 0;
  fake.errors.length = 0;
  fake.trusted = true;
}

type Item = { label: string; description?: string };

test('manifest: endpoints, tokenizer, chatTemplate and proxyPort are application settings (the User tab lists them everywhere)', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  const props = manifest.contributes.configuration.properties;
  for (const key of ['toolscope.endpoints', 'toolscope.tokenizer', 'toolscope.chatTemplate', 'toolscope.proxyPort'])
    assert.equal(props[key]?.scope, 'application', key);
  assert.ok(!Object.values(props).some((p) => p.scope === 'machine'), 'no machine setting is left (hidden from the User tab remotely)');
});

test('a workspace value of toolscope.endpoints is never read: not listed, named as skipped', async () => {
  reset();
  fake.settings.set('toolscope.endpoints', [{ name: 'mine', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }]);
  fake.workspaceSettings.set('toolscope.endpoints', [{ name: 'theirs', baseUrl: 'https://attacker.example/v1', model: 'x' }]);
  // VS Code's merged value is the workspace's: reading it with get() would replay to the repository's endpoint.
  assert.match(JSON.stringify(workspace.getConfiguration('toolscope').get('endpoints')), /attacker\.example/);
  const { endpoints, skipped } = configuredEndpoints();
  assert.deepEqual(
    endpoints.map((e) => e.name),
    ['mine'],
  );
  assert.equal(skipped.length, 1);
  assert.match(skipped[0] ?? '', /toolscope\.endpoints in workspace settings: not read/);

  // The picker offers the user's endpoint and says what it skipped; the workspace's endpoint is not among the rows.
  let offered: Item[] = [];
  let placeHolder: string | undefined;
  fake.picks.push((items, options) => {
    offered = items as Item[];
    placeHolder = (options as { placeHolder?: string }).placeHolder;
    return undefined;
  });
  assert.equal(await pickEndpoint(), undefined);
  assert.deepEqual(
    offered.map((i) => i.label),
    ['Embedded endpoint', 'mine', '$(warning) Skipped'],
  );
  assert.ok(!JSON.stringify(offered).includes('attacker.example'), JSON.stringify(offered));
  assert.match(offered[2]?.description ?? '', /workspace settings: not read \(replays carry your API key/);
  assert.match(placeHolder ?? '', /1 skipped/);

  // Only a workspace value: no endpoint at all; picking the skipped row opens the User setting, nothing is replayed.
  fake.settings.clear();
  fake.picks.push((items) => items.find((i) => i.label.includes('Skipped')));
  assert.equal(await pickEndpoint(), undefined);
  assert.deepEqual(fake.executed.at(-1), ['workbench.action.openSettings', 'toolscope.endpoints']);
});

test('a replay never goes to a workspace endpoint: the request reaches only the user one', async () => {
  reset();
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-usersettings-'));
  const hits: Record<string, number> = { user: 0, workspace: 0 };
  const servers = (['user', 'workspace'] as const).map((who) =>
    createServer((req, res) => {
      hits[who] = (hits[who] ?? 0) + 1;
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `${who} endpoint` } }));
    }),
  );
  try {
    const ports: number[] = [];
    for (const s of servers) {
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      ports.push((s.address() as { port: number }).port);
    }
    fake.settings.set('toolscope.endpoints', [{ name: 'same-name', baseUrl: `http://127.0.0.1:${ports[0]}/v1`, model: 'm' }]);
    fake.workspaceSettings.set('toolscope.endpoints', [{ name: 'same-name', baseUrl: `http://127.0.0.1:${ports[1]}/v1`, model: 'm' }]);
    const trace = join(dir, 'kimi.jsonl');
    await copyFile(join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl'), trace);
    const lines: string[] = [];
    const secrets = { get: () => Promise.resolve('sk-user-key') };
    const replay = new ReplayRecordCommand(new ApiKeys(secrets as never), {
      appendLine: (l: string) => lines.push(l),
      show: () => undefined,
    } as never);
    fake.picks.push(
      (items) => items.find((i) => i.label === 'same-name'),
      (items) => items.find((i) => i.label === 'Chat'),
      (items) => items.find((i) => i.label === 'Off'),
    );
    await replay.run({ uri: Uri.file(trace) as never, recordId: 'schema-violations' });
    assert.equal(hits.workspace, 0, 'the workspace endpoint was sent a request');
    assert.ok((hits.user ?? 0) >= 1, 'the user endpoint got the replay');
    assert.match(await readFile(join(dir, 'kimi.replays.jsonl'), 'utf8'), /user endpoint/);
  } finally {
    for (const s of servers) await new Promise((r) => s.close(r));
    await rm(dir, { recursive: true, force: true });
  }
});

test('tokenizer, chatTemplate and proxyPort: the user value, never a workspace one', async () => {
  reset();
  fake.workspaceSettings.set('toolscope.tokenizer', { '*': '/somewhere/in/the/repo' });
  fake.workspaceSettings.set('toolscope.chatTemplate', join(ROOT, 'package.json'));
  fake.workspaceSettings.set('toolscope.proxyPort', 1234);
  assert.equal(tokenizerSettingFor(Uri.file('/t.jsonl') as never), undefined);
  assert.equal(await templateSettingFor(Uri.file('/t.jsonl') as never), undefined);
  assert.deepEqual(userSetting('proxyPort'), { value: undefined, skipped: ['workspace settings'] });
  fake.settings.set('toolscope.tokenizer', { kimi_k2: '/models/kimi' });
  fake.settings.set('toolscope.proxyPort', 8123);
  assert.deepEqual(tokenizerSettingFor(Uri.file('/t.jsonl') as never), { byName: { kimi_k2: '/models/kimi' } });
  assert.equal(userSetting('proxyPort').value, 8123);
});

test('entries that cannot be used are skipped with why, the rest kept', () => {
  const { endpoints, skipped } = endpointsFromSetting([
    { name: 'ok', baseUrl: '127.0.0.1:8000' },
    { baseUrl: 'http://x/v1' },
    { name: 'ok', baseUrl: 'http://y/v1' },
    { name: 'embedded', baseUrl: 'http://z/v1' },
    { name: 'bad-engine', baseUrl: 'http://z/v1', engine: 'tgi' },
    { name: 'bad-url', baseUrl: 'http://[::1' },
    null,
  ]);
  assert.deepEqual(endpoints, [{ name: 'ok', baseUrl: 'http://127.0.0.1:8000/v1', model: 'default', engine: 'vllm' }]);
  assert.deepEqual(skipped, [
    'toolscope.endpoints[1] needs "name" and "baseUrl"',
    '"ok" (toolscope.endpoints[2]): the name is taken',
    '"embedded" (toolscope.endpoints[3]): the name is taken',
    '"bad-engine" (toolscope.endpoints[4]): engine "tgi" is not one of vllm, sglang, openai',
    '"bad-url" (toolscope.endpoints[5]): "http://[::1" is not a URL',
    'toolscope.endpoints[6] needs "name" and "baseUrl"',
  ]);
  assert.deepEqual(endpointsFromSetting({ name: 'x' }).skipped, ['toolscope.endpoints is not a list']);
});
