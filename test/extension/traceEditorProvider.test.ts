/**
 * The trace editor provider (src/extension) over a fake `vscode`: it builds its TraceSession with the format the
 * `toolscope.format` setting names, and when the setting changes the open trace starts over in the new format.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope, HostEvent, HostReply, InitialPage, RecordSummary, RecordView, TraceInfo } from '../../src/shared/protocol.ts';
import { unpackEnvelope } from '../../src/shared/packedEnvelope.ts';
import type { TraceEditorProvider as Provider } from '../../src/extension/traceEditorProvider.ts';

import { fake, Uri } from './fakeVscode.ts';
import { done, FAKE_PAGE, fakePanel, fakeExtensionFolder, openInTraceEditor } from './fakePanel.ts';

/** The provider module, imported after the hook so that its `import 'vscode'` resolves to the fake. */
async function load() {
  return import('../../src/extension/traceEditorProvider.ts');
}

const SAMPLES = fileURLToPath(new URL('../../samples/other-formats.jsonl', import.meta.url));

/**
 * A trace of 600 records, enough for many batches, half of them an integer their schema refuses (a what-if finding
 * each), opened by a registered provider in a folder of its own (`prefix`).
 */
async function openSixHundred(prefix: string) {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  const { recordWithSchema, traceText } = await import('../fixtures/hostileSchemas.ts');
  const { writeFile } = await import('node:fs/promises');
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const trace = join(dir, 'many.jsonl');
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  await writeFile(
    trace,
    traceText(Array.from({ length: 600 }, (_, i) => recordWithSchema(`r${i}`, schema, i % 2 ? '{"a": 1}' : '{"a": "x"}'))),
  );
  fake.settings.clear();
  const registration = TraceEditorProvider.register({ extensionUri: Uri.file(fakeExtensionFolder()) } as never);
  const provider = fake.providers.get(TRACE_VIEW_TYPE) as Provider;
  const document = await provider.openCustomDocument(Uri.file(trace) as never);
  return { dir, registration, provider, document };
}

/**
 * The rows as the page has them (the ready reply's, then each message's rows, then its findings): all 600 of
 * openSixHundred's trace, every what-if finding in. Returns them, and how many list messages came.
 */
function assertEveryRowAndFinding(init: { summaries: RecordSummary[] }, events: HostEvent[]) {
  const rows = new Map(init.summaries.map((s) => [s.key, s]));
  let messages = 0;
  for (const e of events) {
    if (e.type !== 'summaries' && e.type !== 'guidedFindings') continue;
    messages++;
    if (e.type === 'summaries') for (const s of e.summaries) rows.set(s.key, s);
    for (const f of e.findings ?? []) rows.set(f.key, f.summary);
  }
  assert.equal(rows.size, 600);
  assert.ok(
    [...rows.values()].every((s) => !s.guidedPending),
    'every what-if finding reached the page',
  );
  return { rows, messages };
}

test('trace editor: toolscope.format is read when the trace opens and re-applied when it changes', async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  fake.settings.clear();
  fake.settings.set('toolscope.format', 'auto');
  const registration = TraceEditorProvider.register({ extensionUri: Uri.file(fakeExtensionFolder()) } as never);
  const provider = fake.providers.get(TRACE_VIEW_TYPE) as Provider;
  assert.ok(provider, 'the custom editor is registered');
  const document = await provider.openCustomDocument(Uri.file(SAMPLES) as never);
  const view = fakePanel();
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    // The page carries the extension's bundle and stylesheet inline, under the page's nonce.
    const html = await view.written();
    const nonce = /'nonce-([^']+)'/u.exec(html)?.[1];
    assert.ok(nonce, 'the CSP names a nonce');
    assert.ok(html.includes(`<script nonce="${nonce}">${FAKE_PAGE.script}`), 'the bundle inline under the nonce');
    assert.ok(html.includes(`<style nonce="${nonce}">${FAKE_PAGE.style}`), 'the stylesheet inline under the nonce');
    const init = await view.request({ type: 'ready' });
    assert.equal(init.type, 'init');
    assert.equal(init.type === 'init' ? init.info.format : 'x', null);
    let at = await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    const summaries = () =>
      view
        .events()
        .slice(0, at + 1)
        .flatMap((e) => (e.type === 'summaries' ? e.summaries : []));
    // Auto: each record in its own format (the samples name it; detection agrees, see test/core/formats/detection.test.ts).
    assert.deepEqual(
      [...new Set(summaries().map((s) => s.format))],
      [
        'hermes',
        'qwen3_coder',
        'deepseek_v31',
        'harmony',
        'llama',
        'glm',
        'deepseek_dsml',
        'pythonic',
        'lfm2',
        'kimi_k3',
        'seed_oss',
        'hy_v3',
        'gemma4',
        'functiongemma',
        'mistral',
        'minimax_m2',
        'minimax_m3',
        'granite',
      ],
    );
    const key = summaries().find((s) => s.id === 'deepseek_v31-clean-call')?.key as string;
    const before = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.deepEqual([before.view.format, before.view.formatBasis], ['deepseek_v31', 'named']);

    // The user picks Hermes: a reset that says why, then every record again, in Hermes.
    const mark = view.events().length;
    fake.configure({ 'toolscope.format': 'hermes' });
    const reset = await view.waitEvent(mark, (e) => e.type === 'reset');
    const resetEvent = view.events()[reset];
    assert.ok(resetEvent?.type === 'reset');
    assert.equal(resetEvent.reason, 'format');
    assert.equal(resetEvent.info.format, 'hermes');
    at = await view.waitEvent(reset, (e) => e.type === 'summaries' && done(e.info));
    const after = view
      .events()
      .slice(reset, at + 1)
      .flatMap((e) => (e.type === 'summaries' ? e.summaries : []));
    assert.equal(after.length, 108);
    assert.deepEqual([...new Set(after.map((s) => s.format))], ['hermes']);
    const forced = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.deepEqual([forced.view.format, forced.view.formatBasis], ['hermes', 'forced']);

    // A value that is no format: said once, and read as auto.
    const mark2 = view.events().length;
    fake.configure({ 'toolscope.format': 'deepseek' });
    const reset2 = await view.waitEvent(mark2, (e) => e.type === 'reset');
    assert.equal((view.events()[reset2] as { info: TraceInfo }).info.format, null);
    assert.equal(fake.warnings.length, 1);
    assert.match(fake.warnings[0] ?? '', /"deepseek", which is not a format/);
    await view.waitEvent(reset2, (e) => e.type === 'summaries' && done(e.info));
    const back = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.deepEqual([back.view.format, back.view.formatBasis], ['deepseek_v31', 'named']);

    // Another setting changing does not start the trace over.
    const mark3 = view.events().length;
    fake.configure({ 'toolscope.endpoints': [] });
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      !view
        .events()
        .slice(mark3)
        .some((e) => e.type === 'reset'),
    );
  } finally {
    document.dispose();
    registration.dispose();
  }
  assert.equal(fake.configurationListeners.size, 0, 'the configuration listener goes with the provider');
});

test('trace editor: a trace opened with a format set starts in it', async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  fake.settings.clear();
  fake.settings.set('toolscope.format', 'harmony');
  const { registration, document, view } = await openInTraceEditor({ TraceEditorProvider, TRACE_VIEW_TYPE }, SAMPLES);
  try {
    const init = await view.request({ type: 'ready' });
    assert.equal(init.type === 'init' ? init.info.format : 'x', 'harmony');
    const at = await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    const formats = view
      .events()
      .slice(0, at + 1)
      .flatMap((e) => (e.type === 'summaries' ? e.summaries.map((s) => s.format) : []));
    assert.deepEqual([...new Set(formats)], ['harmony']);
  } finally {
    document.dispose();
    registration.dispose();
  }
});

test('trace editor: Raw JSON opens a read-only virtual document (not an untitled file); a reveal asked before the editor opened goes in its page', async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE, revealInTrace } = await load();
  fake.settings.clear();
  const registration = TraceEditorProvider.register({ extensionUri: Uri.file(fakeExtensionFolder()) } as never);
  const provider = fake.providers.get(TRACE_VIEW_TYPE) as Provider;
  // A trace no other test opened (their panels stay "ready" in this fake).
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-provider-'));
  const copy = join(dir, 'other-formats.jsonl');
  await copyFile(SAMPLES, copy);
  const uri = Uri.file(copy);
  // Asked before the editor is ready: kept until its webview says ready.
  revealInTrace(uri as never, 'hermes-clean-call', 'compare');
  const document = await provider.openCustomDocument(uri as never);
  const view = fakePanel();
  await provider.resolveCustomEditor(document, view.panel as never);
  // The reveal goes in the page's HTML, applied with its first rows (after the ready reply it could undo a pick).
  const data = /<script type="application\/json" id="toolscope-initial">([^<]*)<\/script>/u.exec(await view.written())?.[1];
  assert.deepEqual((JSON.parse(data ?? '{}') as InitialPage).reveal, { recordId: 'hermes-clean-call', tab: 'compare' });
  const init = await view.request({ type: 'ready' });
  assert.equal(init.type, 'init');
  const request = (view as unknown as { request(b: unknown): Promise<HostReply> }).request;
  fake.opened.length = 0;
  const reply = await request({ type: 'openRaw', key: '0:0' });
  assert.equal(reply.type, 'ok');
  assert.equal(fake.opened.length, 1);
  assert.match(fake.opened[0]?.uri ?? '', /^toolscope-raw:\/\/.*\.json\?other-formats\.jsonl:0:0$/);
  assert.equal(JSON.parse(fake.opened[0]?.text ?? '').toolscope, 1);
  registration.dispose();
  document.dispose();
  await rm(dir, { recursive: true, force: true });
});

test('trace editor: the list goes to the page at most once a frame, every row and what-if finding included', async () => {
  const { dir, registration, provider, document } = await openSixHundred('toolscope-frames-');
  const view = fakePanel();
  // When each list message was posted (the page's rows and findings).
  const times: number[] = [];
  const post = view.panel.webview.postMessage;
  // The list's messages go as bytes (src/shared/packedEnvelope.ts), in an array that owns its buffer (VS Code sends
  // a view's whole buffer); nothing else is packed.
  let packedRight = true;
  view.panel.webview.postMessage = (m) => {
    if (m.kind === 'packed') {
      times.push(performance.now());
      const body = (unpackEnvelope(m) as Envelope).body as HostEvent;
      packedRight &&=
        m.bytes instanceof Uint8Array &&
        m.bytes.byteOffset === 0 &&
        m.bytes.byteLength === m.bytes.buffer.byteLength &&
        (body.type === 'summaries' || body.type === 'guidedFindings');
    } else if (m.kind === 'event') packedRight &&= m.body.type !== 'summaries' && m.body.type !== 'guidedFindings';
    return post(m);
  };
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    const init = await view.request({ type: 'ready' });
    assert.equal(init.type, 'init');
    await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    const { rows, messages } = assertEveryRowAndFinding(init.type === 'init' ? init : { summaries: [] }, view.events());
    assert.equal([...rows.values()].filter((s) => s.kinds['guided-would-block']).length, 300);
    // At most one message a frame (timers fire at most a millisecond or two early), and fewer than the batches.
    for (let i = 1; i < times.length; i++) assert.ok((times[i] as number) - (times[i - 1] as number) >= 14, `messages ${i - 1} and ${i}`);
    assert.ok(messages >= 1 && messages === times.length);
    assert.ok(packedRight, "the list's messages, and only they, are packed");
  } finally {
    document.dispose();
    registration.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test('trace editor: while the analysis runs and the list rests, its first 200 rows go a frame apart, then its messages a quarter second apart (each is a frame of a browser workbench)', async () => {
  const { dir, registration, provider, document } = await openSixHundred('toolscope-rest-');
  const view = fakePanel();
  const sent: { at: number; body: HostEvent }[] = [];
  const post = view.panel.webview.postMessage;
  view.panel.webview.postMessage = (m) => {
    if (m.kind === 'packed') sent.push({ at: performance.now(), body: (unpackEnvelope(m) as Envelope).body as HostEvent });
    return post(m);
  };
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    const init = await view.request({ type: 'ready' });
    const readyAt = performance.now();
    assert.ok(init.type === 'init');
    await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    // The list's messages while the analysis ran: every one but the end (which goes a frame after the last: sendRest),
    // and not the first record's own what-if findings (entry 0, the record the page is written with: a reply's follow-up).
    const end = sent.findIndex(({ body }) => body.type === 'summaries' && done(body.info));
    const listed = sent
      .slice(0, end)
      .filter(({ body }) => !(body.type === 'guidedFindings' && body.findings.every((f) => f.key === '0:0')));
    // The first 200 rows streamed fill the list at once (a small trace's whole list): a frame apart, not a quarter second.
    let streamed = 0;
    const first = listed.findIndex(({ body }) => (streamed += body.type === 'summaries' ? body.summaries.length : 0) >= 200);
    const early = listed.slice(0, first + 1).map(({ at }) => at);
    assert.ok(early.length >= 2, `${early.length} messages before 200 rows had streamed (${streamed} before the end)`);
    assert.ok(
      early.some((at, i) => i > 0 && at - (early[i - 1] as number) < 245),
      `the first rows' messages: ${early.map((at, i) => (i ? (at - (early[i - 1] as number)).toFixed(0) : '0')).join(', ')} ms apart`,
    );
    const during = listed.slice(first + 1).map(({ at }) => at);
    // (Half a second of analysis or more makes two messages at least; a machine fast enough to need less sends one.)
    const took = (sent[end]?.at ?? readyAt) - (early.at(-1) ?? readyAt);
    assert.ok(
      during.length >= 2 || took < 500,
      `${during.length} messages in the ${took.toFixed(0)} ms the analysis ran after its first rows`,
    );
    // (Timers fire at most a millisecond or two early.)
    for (let i = 1; i < during.length; i++)
      assert.ok(
        (during[i] as number) - (during[i - 1] as number) >= 245,
        `messages ${i - 1} and ${i}: ${((during[i] as number) - (during[i - 1] as number)).toFixed(0)} ms apart`,
      );
    assertEveryRowAndFinding(init, view.events());
  } finally {
    document.dispose();
    registration.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test("trace editor: the page's HTML carries its first rows and the first row's record; the ready reply lists the rest, no row twice", async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  fake.settings.clear();
  const registration = TraceEditorProvider.register({ extensionUri: Uri.file(fakeExtensionFolder()) } as never);
  const provider = fake.providers.get(TRACE_VIEW_TYPE) as Provider;
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-initial-'));
  const copy = join(dir, 'other-formats.jsonl');
  await copyFile(SAMPLES, copy);
  const document = await provider.openCustomDocument(Uri.file(copy) as never);
  const view = fakePanel();
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    const data = /<script type="application\/json" id="toolscope-initial">([^<]*)<\/script>/u.exec(await view.written())?.[1];
    assert.ok(data, 'the page carries its first rows');
    const initial = JSON.parse(data) as InitialPage;
    assert.equal(initial.init.type, 'init');
    const first = initial.init.summaries[0];
    assert.ok(first, 'at least one row');
    // The record the page shows first, as getRecord sends it (its what-if's findings may have come since).
    assert.equal(initial.record?.key, first.key);
    const asked = (await view.request({ type: 'getRecord', key: first.key })) as { view: RecordView };
    const part = (v: RecordView | undefined) => v && { id: v.id, line: v.line, tokens: v.tokens.length, rawJson: v.rawJson };
    assert.deepEqual(part(initial.record), part(asked.view));
    // The ready reply: the rows the page carries and those since, then every other row once, as events.
    const init = await view.request({ type: 'ready' });
    assert.ok(init.type === 'init');
    for (const s of initial.init.summaries)
      assert.ok(
        init.summaries.some((r) => r.key === s.key),
        s.key,
      );
    await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    const keys = [...init.summaries, ...view.events().flatMap((e) => (e.type === 'summaries' ? e.summaries : []))].map((s) => s.key);
    assert.equal(keys.length, 108);
    assert.equal(new Set(keys).size, keys.length, 'no row twice');
  } finally {
    document.dispose();
    registration.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test('trace editor: while the list moves its rows wait (a message a second at most), and all come once it rests', async () => {
  const { dir, registration, provider, document } = await openSixHundred('toolscope-moving-');
  const view = fakePanel();
  let moving = false;
  const sent: { at: number; body: HostEvent }[] = [];
  const post = view.panel.webview.postMessage;
  view.panel.webview.postMessage = (m) => {
    if (moving && m.kind === 'packed') sent.push({ at: performance.now(), body: (unpackEnvelope(m) as Envelope).body as HostEvent });
    return post(m);
  };
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    const init = await view.request({ type: 'ready' });
    assert.ok(init.type === 'init');
    assert.equal((await view.request({ type: 'listMoving' })).type, 'ok');
    moving = true;
    await new Promise((r) => setTimeout(r, 2500));
    moving = false;
    // The list's messages (not the first record's own what-if findings, which follow its page; nor the analysis's end,
    // which goes at once: the next test).
    // (The first record, entry 0, is the one the page is written with.)
    const first = '0:0';
    const times = sent
      .filter(({ body }) => !(body.type === 'summaries' && done(body.info)))
      .filter(({ body }) => !(body.type === 'guidedFindings' && body.findings.every((f) => f.key === first)))
      .map(({ at }) => at);
    // Moving: a message a second at most (timers fire at most a millisecond or two early).
    for (let i = 1; i < times.length; i++) assert.ok((times[i] as number) - (times[i - 1] as number) >= 990, `messages ${i - 1} and ${i}`);
    assert.ok(times.length <= 3, `${times.length} messages in 2.5 s`);
    // At rest: the rest comes, every row and finding.
    assert.equal((await view.request({ type: 'inView', keys: [] })).type, 'ok');
    await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    assertEveryRowAndFinding(init, view.events());
  } finally {
    document.dispose();
    registration.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test("trace editor: a moving list gets the analysis's end a frame after the last message, not at the next second's message", async () => {
  const { dir, registration, provider, document } = await openSixHundred('toolscope-moving-end-');
  const view = fakePanel();
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    const init = await view.request({ type: 'ready' });
    assert.ok(init.type === 'init');
    // The list moves the whole time (said again before the host would take it to rest), never resting.
    assert.equal((await view.request({ type: 'listMoving' })).type, 'ok');
    const renew = setInterval(() => void view.request({ type: 'listMoving' }), 2000);
    try {
      // When the host's session has every row and finding, and when the page's list is complete.
      const session = (document as unknown as { session: { info(host: 'vscode'): TraceInfo } }).session;
      let sessionDone = NaN;
      for (let i = 0; i < 6000 && Number.isNaN(sessionDone); i++) {
        if (done(session.info('vscode'))) sessionDone = performance.now();
        else await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(Number.isFinite(sessionDone), 'the analysis ended');
      await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
      const pageDone = performance.now();
      // Within a frame and a few timer turns, not at the next of a moving list's messages (a second apart).
      assert.ok(
        pageDone - sessionDone < 250,
        `the end reached the page ${(pageDone - sessionDone).toFixed(0)} ms after the analysis ended`,
      );
    } finally {
      clearInterval(renew);
    }
    assertEveryRowAndFinding(init, view.events());
  } finally {
    document.dispose();
    registration.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test("trace editor: the editor resolves before its page is written (the workbench makes the webview's frame meanwhile); the page, once written, carries its first record", async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  fake.settings.clear();
  const { registration, document, view } = await openInTraceEditor({ TraceEditorProvider, TRACE_VIEW_TYPE }, SAMPLES);
  try {
    // Resolved: the first rows and record are still being read, the page not written yet.
    assert.equal(view.panel.webview.html, '');
    const data = /<script type="application\/json" id="toolscope-initial">([^<]*)<\/script>/u.exec(await view.written())?.[1];
    const initial = JSON.parse(data ?? '{}') as InitialPage;
    assert.ok(initial.record, 'the page carries its first record');
    assert.equal(initial.record.key, initial.init.summaries[0]?.key);
    const init = await view.request({ type: 'ready' });
    assert.equal(init.type, 'init');
  } finally {
    document.dispose();
    registration.dispose();
  }
});

test("trace editor: the first rows and record are read after the editor's reply has gone out (VS Code writes a turn's messages on a 0 ms timer)", async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  fake.settings.clear();
  const registration = TraceEditorProvider.register({ extensionUri: Uri.file(fakeExtensionFolder()) } as never);
  const provider = fake.providers.get(TRACE_VIEW_TYPE) as Provider;
  const document = await provider.openCustomDocument(Uri.file(SAMPLES) as never);
  const order: string[] = [];
  const nextBatch = document.session.nextBatch.bind(document.session);
  document.session.nextBatch = (budgetMs?: number) => (order.push('read'), nextBatch(budgetMs));
  const view = fakePanel();
  try {
    await provider.resolveCustomEditor(document, view.panel as never);
    // As VS Code's RPC writer (ipc.net.ts, ProtocolWriter) once the reply is queued: the turn's messages go on a
    // 0 ms timer, and a remote workbench's socket deflates them on libuv's pool before the next turn's end.
    setTimeout(() => order.push('reply written'), 0);
    await view.written();
    assert.deepEqual(order.slice(0, 2), ['reply written', 'read']);
  } finally {
    document.dispose();
    registration.dispose();
  }
});

test('trace editor: a page that cannot be written (its bundle is missing) says why instead', async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await load();
  const { rmSync } = await import('node:fs');
  fake.settings.clear();
  const folder = fakeExtensionFolder();
  rmSync(join(folder, 'dist', 'webview.js'));
  const registration = TraceEditorProvider.register({ extensionUri: Uri.file(folder) } as never);
  const provider = fake.providers.get(TRACE_VIEW_TYPE) as Provider;
  const document = await provider.openCustomDocument(Uri.file(SAMPLES) as never);
  const view = fakePanel();
  await provider.resolveCustomEditor(document, view.panel as never);
  try {
    const html = await view.written();
    assert.match(html, /Toolscope could not start/);
    assert.match(html, /webview\.js/);
    assert.doesNotMatch(html, /<script/);
  } finally {
    document.dispose();
    registration.dispose();
  }
});
