/**
 * "Toolscope: Open Trace from Clipboard" through a stand-in `vscode`: the pasted text is stored as a file in the
 * extension's global storage (where the byte-offset reader can read it) and opened in the trace editor; it loads
 * like any trace file; an empty clipboard opens nothing; old pastes are pruned.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fake, Uri } from './fakeVscode.ts';
import { openClipboardTrace, PASTE_KEEP } from '../../src/extension/openClipboardCommand.ts';
import { loadAll } from '../../src/io/trace/loadTrace.ts';

const SSE = [
  'event: message_start',
  `data: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_paste', type: 'message', role: 'assistant', content: [] } })}`,
  '',
  'event: content_block_delta',
  `data: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })}`,
].join('\n');

test('a pasted trace is written to global storage and opened in the trace editor; it reads like a file', async () => {
  const storage = await mkdtemp(join(tmpdir(), 'toolscope-paste-'));
  try {
    fake.executed.length = 0;
    fake.clipboard = SSE;
    const uri = await openClipboardTrace({ globalStorageUri: Uri.file(storage) } as never, new Date('2025-10-21T09:08:07Z'));
    assert.ok(uri);
    assert.equal(uri.fsPath, join(storage, 'pasted', 'clipboard-2025-10-21T09-08-07.txt'));
    assert.equal(await readFile(uri.fsPath, 'utf8'), SSE);
    assert.equal((await stat(uri.fsPath)).mode & 0o077, 0, 'only the user can read the pasted text');
    assert.deepEqual(fake.executed, [['vscode.openWith', uri, 'toolscope.trace']]);
    const loaded = await loadAll(uri.fsPath);
    assert.deepEqual(
      loaded.records.map((r) => [r.record.id, r.source, r.line, r.lastLine]),
      [['msg_paste', 'anthropic-stream', 1, 5]],
    );
  } finally {
    await rm(storage, { recursive: true, force: true });
  }
});

test('an empty clipboard opens nothing and says so; only the newest pastes are kept', async () => {
  const storage = await mkdtemp(join(tmpdir(), 'toolscope-paste-'));
  try {
    fake.executed.length = 0;
    fake.infos.length = 0;
    fake.clipboard = '  \n';
    assert.equal(await openClipboardTrace({ globalStorageUri: Uri.file(storage) } as never), undefined);
    assert.deepEqual(fake.executed, []);
    assert.match(fake.infos[0] ?? '', /clipboard is empty/);
    fake.clipboard = '{"toolscope":1,"id":"x"}';
    for (let i = 0; i < PASTE_KEEP + 3; i++)
      await openClipboardTrace({ globalStorageUri: Uri.file(storage) } as never, new Date(Date.UTC(2025, 0, 1, 0, 0, i)));
    const files = (await readdir(join(storage, 'pasted'))).sort();
    assert.equal(files.length, PASTE_KEEP);
    assert.equal(files[files.length - 1], `clipboard-2025-01-01T00-00-${String(PASTE_KEEP + 2).padStart(2, '0')}.txt`);
  } finally {
    await rm(storage, { recursive: true, force: true });
  }
});
