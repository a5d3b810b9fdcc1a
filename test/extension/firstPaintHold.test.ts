/**
 * The trace editor's first open holds the grammar engines until its page says it painted (traceEditorProvider.ts,
 * openCustomDocument): a file of its own, so that no engine of an earlier test is up already (engines already up
 * are not held).
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { HostEvent } from '../../src/shared/protocol.ts';
import { fake } from './fakeVscode.ts';
import { openInTraceEditor } from './fakePanel.ts';

const KIMI = fileURLToPath(new URL('../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));

/** The provider module, imported after the hook so that its `import 'vscode'` resolves to the fake. */
async function load() {
  return import('../../src/extension/traceEditorProvider.ts');
}

test('trace editor: the grammar engines wait for the page to paint its first record (the what-ifs queue), then run', async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  const { guidedEngine } = await import('../../src/io/guided/guidedEnginePool.ts');
  fake.settings.clear();
  const { registration, document, view } = await openInTraceEditor({ TraceEditorProvider, TRACE_VIEW_TYPE }, KIMI, { paints: false });
  const findings = (e: HostEvent) => e.type === 'guidedFindings' || (e.type === 'summaries' && (e.findings?.length ?? 0) > 0);
  try {
    await view.written();
    const answered = guidedEngine().stats.jobs;
    assert.equal((await view.request({ type: 'ready' })).type, 'init');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(guidedEngine().stats.jobs, answered, 'no job reached a grammar engine before the page painted');
    assert.ok(guidedEngine().waiting > 0, 'the what-ifs wait in the pool');
    assert.equal(view.events().filter(findings).length, 0, 'no what-if answered before the page painted');
    assert.equal((await view.request({ type: 'painted' })).type, 'ok');
    await view.waitEvent(0, findings);
  } finally {
    document.dispose();
    registration.dispose();
  }
});
