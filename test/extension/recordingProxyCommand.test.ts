/**
 * "Toolscope: Start / Stop Recording Proxy" through a stand-in `vscode`: the embedded endpoint picked as a user
 * would, a status-bar count that follows the exchanges, a click that opens the live trace in the Toolscope editor,
 * and the record on disk; untrusted workspaces are refused.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fake, Uri } from './fakeVscode.ts';
import { RECORDING_CONTEXT, RecordingProxyCommand } from '../../src/extension/recordingProxyCommand.ts';
import { OPEN_RECORDING_COMMAND } from '../../src/extension/recordingCommandIds.ts';
import { ApiKeys } from '../../src/extension/endpoints.ts';
import { loadAll } from '../../src/io/trace/loadTrace.ts';

const byLabel = (prefix: string) => (items: Array<{ label: string }>) => items.find((i) => i.label.startsWith(prefix));

function command(lines: string[]) {
  const output = { appendLine: (l: string) => lines.push(l) };
  const secrets = { get: () => Promise.resolve(undefined) };
  return new RecordingProxyCommand(new ApiKeys(secrets as never), output as never);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), what);
}

test('start against the embedded endpoint, count exchanges in the status bar, open the live trace, stop', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-reccmd-'));
  const lines: string[] = [];
  const recorder = command(lines);
  try {
    const file = join(dir, 'live.jsonl');
    fake.trusted = true;
    fake.executed.length = 0;
    fake.saveTo = Uri.file(file);
    fake.picks.push(byLabel('Embedded'), byLabel('Exchanges and raw tokens'));
    await recorder.start();
    const url = recorder.url;
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1$/u);
    const item = fake.statusBarItems.at(-1);
    assert.ok(item?.visible);
    assert.equal(item.text, '$(record) 0');
    assert.equal(item.command, OPEN_RECORDING_COMMAND);
    assert.ok(fake.executed.some((c) => c[0] === 'setContext' && c[1] === RECORDING_CONTEXT && c[2] === true));

    const r = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'kimi-k2',
        stream: true,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
        ],
      }),
    });
    assert.equal(r.status, 200);
    assert.doesNotMatch(await r.text(), /"logprobs":\{/u, 'the client never sees the token data');
    await until(() => item.text === '$(record) 1', `status shows one exchange (${item.text})`);
    assert.match(String((item.tooltip as { value: string }).value), /1 exchange recorded[\s\S]*live\.jsonl/u);

    await recorder.openTrace();
    const opened = fake.executed.find((c) => c[0] === 'vscode.openWith');
    assert.equal((opened?.[1] as Uri).fsPath, file);
    assert.equal(opened?.[2], 'toolscope.trace');

    // A second start while recording offers the running one instead of starting another.
    const picksBefore = fake.pickTitles.length;
    await recorder.start();
    assert.equal(fake.pickTitles.length, picksBefore);

    await recorder.stop();
    assert.equal(item.visible, false);
    assert.equal(recorder.url, null);
    assert.ok(fake.executed.some((c) => c[0] === 'setContext' && c[1] === RECORDING_CONTEXT && c[2] === false));
    const { records, errors } = await loadAll(file);
    assert.deepEqual(errors, []);
    assert.equal(records.length, 1);
    assert.ok(records[0]?.record.completion?.tokens?.length, 'raw tokens recorded');
    assert.match(lines.join('\n'), /Recording proxy stopped: 1 exchange recorded/u);
  } finally {
    recorder.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test('untrusted workspace: refused, nothing started; a cancelled save dialog starts nothing either', async () => {
  const recorder = command([]);
  try {
    fake.trusted = false;
    fake.warnings.length = 0;
    await recorder.start();
    assert.match(fake.warnings.at(-1) ?? '', /disabled in untrusted workspaces/u);
    assert.equal(recorder.url, null);
    fake.trusted = true;
    fake.saveTo = undefined;
    fake.picks.push(byLabel('Embedded'), byLabel('Exchanges'));
    await recorder.start();
    assert.equal(recorder.url, null);
  } finally {
    recorder.dispose();
  }
});
