/**
 * What waits for the session's first trace editor (the extension's entry writes its code cache 20 s after it, not
 * after activation: a JSON Lines file opened as text activates the extension, maybe long before any trace is opened)
 * runs once that editor's page is written, and at once after that. A file of its own: the first open is per process.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { openInTraceEditor } from './fakePanel.ts';

const KIMI = fileURLToPath(new URL('../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));

test('the first trace editor: what waits for it runs when its page is written, not at activation', async () => {
  const { afterFirstTraceOpen } = await import('../../src/extension/extension.ts');
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await import('../../src/extension/traceEditorProvider.ts');
  let ran = 0;
  afterFirstTraceOpen(() => ran++);
  // The provider registered (as activation registers it) is not an open trace.
  const registered = TraceEditorProvider.register({ extensionUri: { fsPath: '/nowhere' } } as never);
  registered.dispose();
  assert.equal(ran, 0, 'nothing runs before a trace editor is opened');
  const { registration, document, view } = await openInTraceEditor({ TraceEditorProvider, TRACE_VIEW_TYPE }, KIMI);
  try {
    await view.written();
    assert.equal(ran, 1, 'it ran once the first page was written');
    let later = 0;
    afterFirstTraceOpen(() => later++);
    assert.equal(later, 1, 'after the first open, at once');
    assert.equal(ran, 1);
  } finally {
    document.dispose();
    registration.dispose();
  }
});
