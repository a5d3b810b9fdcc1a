/**
 * The extension's activation loads what the trace editor's first paint needs and nothing more: replay, Evaluate
 * Samples… and the recording proxy (the HTTP client, undici, and servers) load when one of their commands first runs.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fake, Uri } from './fakeVscode.ts';
import { fakeExtensionFolder } from './fakePanel.ts';

const loaded = (part: string) => Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes(part));

test('activation: the trace editor and its commands are registered; replay, eval and the proxy load on first use', async () => {
  const { activate } = await import('../../src/extension/extension.ts');
  const subscriptions: { dispose(): unknown }[] = [];
  activate({
    subscriptions,
    secrets: { get: () => Promise.resolve(undefined), store: () => Promise.resolve(), delete: () => Promise.resolve() },
    extension: { packageJSON: { version: '0' } },
    extensionUri: Uri.file(fakeExtensionFolder()),
  } as never);
  try {
    assert.ok(fake.providers.has('toolscope.trace'), 'the trace editor is registered');
    for (const command of [
      'toolscope.replayRecord',
      'toolscope.evaluateSamples',
      'toolscope.startRecordingProxy',
      'toolscope.openRecordingTrace',
    ])
      assert.ok(fake.commands.has(command), command);
    assert.ok(loaded('traceSession.ts'), 'the trace editor is loaded');
    // It activates whenever a JSON Lines file opens as text (package.json): activation starts no work of its own.
    const { guidedEngine } = await import('../../src/io/guided/guidedEnginePool.ts');
    assert.equal(guidedEngine().started, false, 'no grammar engine is started at activation');
    for (const part of ['replayRecordCommand.ts', 'evaluateSamplesCommand.ts', 'recordingProxyCommand.ts', '/undici/'])
      assert.equal(loaded(part), false, `${part} is not loaded at activation`);
    // Replay, run without a trace open: it loads, and says what it needs.
    fake.trusted = true;
    await fake.commands.get('toolscope.replayRecord')?.();
    assert.ok(loaded('replayRecordCommand.ts') && loaded('/undici/'), 'replay loads when its command runs');
    assert.ok(
      fake.errors.some((m) => /open a \.jsonl trace to replay/.test(m)),
      JSON.stringify(fake.errors),
    );
  } finally {
    for (const s of subscriptions) s.dispose();
  }
});
