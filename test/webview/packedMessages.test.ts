/**
 * The list's messages as the trace editor's host sends them (src/shared/packedEnvelope.ts): a `summaries` event packed
 * into a Uint8Array of its JSON reaches the VS Code page as a `message` event, and the page decodes it
 * (webview/hostConnection.ts): its rows are listed and its info taken (chromium, the VS Code page over a real
 * TraceSession).
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { browserMissing, ensureBuilt, launch, openPage, openVsCodePage, PageServer, reportData, ROOT } from './harness.ts';
import type { Envelope, RecordSummary } from '../../src/shared/protocol.ts';

const missing = browserMissing();
const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');

let browser: Browser;
let server: PageServer;

const skip = (t: TestContext) => {
  if (missing) t.skip(missing);
  return Boolean(missing);
};

describe('packed list messages in the VS Code page (chromium)', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    server = new PageServer();
    await server.start();
    browser = await launch();
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
  });

  test('a summaries event packed as bytes: the page decodes it, lists its row and takes its info', async (t) => {
    if (skip(t)) return;
    const data = await reportData([SAMPLE]);
    const n = data.summaries.length;
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, SAMPLE, '/packed-messages.html');
    await page.locator('.list-count', { hasText: new RegExp(`^${n} records`) }).waitFor();
    await host.idle();
    const row: RecordSummary = { ...(data.summaries[0] as RecordSummary), key: 'packed:0', id: 'packed-row', entry: n + 1, line: n + 2 };
    const event: Envelope = {
      kind: 'event',
      body: {
        type: 'summaries',
        summaries: [row],
        lineErrors: [],
        info: { ...data.info, host: 'harness', entries: n + 1, analysing: false },
      },
    };
    // Packed as the host packs it, and delivered as VS Code delivers a message with a typed array in it.
    await page.evaluate(`(() => {
      const bytes = new TextEncoder().encode(${JSON.stringify(JSON.stringify(event))});
      window.dispatchEvent(new MessageEvent('message', { data: { kind: 'packed', bytes } }));
    })()`);
    await page.locator('.list-count', { hasText: new RegExp(`^${n + 1} records`) }).waitFor({ timeout: 5000 });
    assert.match((await page.locator('.status').textContent()) ?? '', new RegExp(`^${n + 1} lines`));
    await host.close();
    await done();
  });
});
