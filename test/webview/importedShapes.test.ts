/**
 * Traces in other APIs' shapes, opened in the trace editor (chromium): the Anthropic SSE sample through the VS Code
 * page (a real TraceSession over the file: byte-offset index, multi-line SSE entries), the Anthropic message
 * sample and a pretty-printed response in the report page.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  addReport,
  browserMissing,
  ensureBuilt,
  launch,
  openPage,
  openVsCodePage,
  PageServer,
  reportData,
  ROOT,
  selectRecord,
  shot,
} from './harness.ts';

const missing = browserMissing();
const STREAM = join(ROOT, 'samples', 'anthropic-stream.sse');
const MESSAGES = join(ROOT, 'samples', 'anthropic-messages.jsonl');
const RESPONSES_STREAM = join(ROOT, 'samples', 'openai-responses-stream.sse');
const OLLAMA = join(ROOT, 'samples', 'ollama-chat-stream.ndjson');
const LLAMA = join(ROOT, 'samples', 'llama-cpp-server.log');
const PRINTOUTS = join(ROOT, 'samples', 'python-sdk-printouts.txt');

let browser: Browser;
let server: PageServer;
let tmp: string;

const skip = (t: TestContext) => {
  if (missing) t.skip(missing);
  return Boolean(missing);
};

async function ids(path: string): Promise<string[]> {
  const data = await reportData([path]);
  return data.summaries.map((s) => s.id);
}

describe('imported shapes in the trace editor (chromium)', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-shapes-'));
    server = new PageServer();
    await server.start();
    browser = await launch();
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('an Anthropic SSE file in the editor: one record per stream, its lines, calls and the broken stream', async (t) => {
    if (skip(t)) return;
    const [clean, broken] = await ids(STREAM);
    assert.ok(clean && broken);
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, STREAM, '/anthropic-stream.html');
    await page.locator('.list-count', { hasText: /^2 records$/ }).waitFor();
    await host.idle();
    await selectRecord(page, clean);
    const meta = (await page.locator('.record-meta').textContent()) ?? '';
    assert.match(meta, /^kimi-k2-0905-preview · format kimi_k2 · anthropic-stream · lines 1–47 · 2 calls · 0 errors, 0 warnings/);
    await shot(page, 'anthropic-stream-calls');
    const text = (await page.locator('body').textContent()) ?? '';
    for (const expected of ['get_weather', 'list_events', 'Two lookups: the weather in Paris and the calendar for tomorrow.'])
      assert.ok(text.includes(expected), expected);

    await selectRecord(page, broken);
    await page.locator('.banner.error', { hasText: 'overloaded_error: Overloaded' }).waitFor();
    assert.match(
      (await page.locator('.record-meta').textContent()) ?? '',
      /anthropic-stream · lines 49–\d+ · 0 calls · 1 error, 0 warnings/,
    );
    assert.equal(await page.locator('.rec-row.failed').count(), 1);
    assert.ok(((await page.locator('body').textContent()) ?? '').includes('Let me pull the incident list'));
    await shot(page, 'anthropic-stream-error');
    await host.close();
    await done();
  });

  test('Anthropic messages and a pretty-printed response in the report page', async (t) => {
    if (skip(t)) return;
    // A pretty-printed chat.completion, as pasted from a terminal, after the Anthropic messages.
    const pretty = JSON.stringify(
      {
        id: 'chatcmpl-pretty',
        object: 'chat.completion',
        model: 'kimi-k2',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
      },
      null,
      2,
    );
    const mixed = join(tmp, 'pasted.txt');
    await writeFile(mixed, `${await readFile(MESSAGES, 'utf8')}${pretty}\n`);
    const data = await reportData([mixed]);
    assert.deepEqual(
      data.summaries.map((s) => [s.source, s.line]),
      [
        ['anthropic', 1],
        ['anthropic', 2],
        ['anthropic', 3],
        ['chat-completion', 4],
      ],
    );
    const { page, done } = await openPage(browser, addReport(server, '/anthropic-messages.html', data));
    const leak = data.summaries[1]?.id ?? '';
    await selectRecord(page, leak);
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /anthropic · line 2 · 0 calls · 1 error/);
    assert.ok(((await page.locator('body').textContent()) ?? '').includes('Tool-call markup or arguments in content'));
    await shot(page, 'anthropic-message-leak');
    await selectRecord(page, 'chatcmpl-pretty');
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /chat-completion · lines 4–\d+ · 0 calls/);
    await done();
  });

  test('a Responses SSE file in the editor: the leaked Harmony markup and the clean call, with the declared tools as the request', async (t) => {
    if (skip(t)) return;
    const [leak, clean] = await ids(RESPONSES_STREAM);
    assert.ok(leak && clean);
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, RESPONSES_STREAM, '/responses-stream.html');
    await page.locator('.list-count', { hasText: /^2 records$/ }).waitFor();
    await host.idle();
    await selectRecord(page, leak);
    assert.match(
      (await page.locator('.record-meta').textContent()) ?? '',
      /^openai\/gpt-oss-120b · format harmony · openai-responses-stream · lines 1–\d+ · 0 calls · 1 error/,
    );
    assert.ok(((await page.locator('body').textContent()) ?? '').includes('Tool-call markup or arguments in content'));
    await shot(page, 'responses-stream-leak');
    await selectRecord(page, clean);
    assert.match(
      (await page.locator('.record-meta').textContent()) ?? '',
      /openai-responses-stream · lines \d+–\d+ · 1 call · 0 errors, 0 warnings/,
    );
    await page.locator('.tab', { hasText: 'Request' }).click();
    const request = (await page.locator('body').textContent()) ?? '';
    assert.ok(request.includes('search_web') && request.includes('get_weather'), 'the declared tools are the request');
    await shot(page, 'responses-stream-request');
    await host.close();
    await done();
  });

  test('an Ollama NDJSON file in the editor: the streamed chat as one record, the raw /api/generate text on the token timeline', async (t) => {
    if (skip(t)) return;
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, OLLAMA, '/ollama.html');
    await page.locator('.list-count', { hasText: /^2 records$/ }).waitFor();
    await host.idle();
    await selectRecord(page, 'line-1');
    assert.match(
      (await page.locator('.record-meta').textContent()) ?? '',
      /^qwen3:8b · format hermes · ollama · lines 1–5 · 2 calls · 0 errors, 0 warnings/,
    );
    assert.ok(((await page.locator('body').textContent()) ?? '').includes('Two cities: call get_weather for each.'));
    await selectRecord(page, 'line-6');
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /ollama · line 6 · 2 calls · 2 errors/);
    // A raw completion: its tokens are chips, the <tool_call> markers among them.
    assert.ok((await page.locator('.chip[data-i]').count()) > 10);
    assert.ok((await page.locator('.chip.role-marker').allTextContents()).includes('<tool_call>'));
    await shot(page, 'ollama-generate-raw');
    await host.close();
    await done();
  });

  test('a llama.cpp server log in the editor: recorded tokens from completion_probabilities, the __verbose dropped call, the quoted parse error', async (t) => {
    if (skip(t)) return;
    const [verbose, probabilities, parseError] = await ids(LLAMA);
    assert.ok(verbose && probabilities && parseError);
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, LLAMA, '/llama-cpp.html');
    await page.locator('.list-count', { hasText: /^3 records$/ }).waitFor();
    await host.idle();
    await selectRecord(page, probabilities);
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /llama\.cpp · line 2 · 1 call · 0 errors, 0 warnings/);
    // Recorded tokens: solid chips (not approximate), the special tokens among them.
    assert.ok((await page.locator('.chip[data-i]').count()) > 10);
    assert.equal(await page.locator('.chip.approx').count(), 0);
    assert.ok((await page.locator('.chip.role-marker').allTextContents()).includes('<|tool_calls_section_begin|>'));
    await shot(page, 'llama-cpp-probabilities');
    await selectRecord(page, verbose);
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /chat-completion · line 1 · 2 calls · 1 error/);
    await selectRecord(page, parseError);
    await page.locator('.banner.error', { hasText: 'Failed to parse input at pos 0' }).waitFor();
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /sse · lines 3–\d+ · 1 call · 2 errors/);
    await shot(page, 'llama-cpp-parse-error');
    await host.close();
    await done();
  });

  test('Python SDK printouts in the editor: the printed chunk loop as one stream, the ChatCompletion repr as a response', async (t) => {
    if (skip(t)) return;
    const [stream, completion] = await ids(PRINTOUTS);
    assert.ok(stream && completion);
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, PRINTOUTS, '/python-printouts.html');
    await page.locator('.list-count', { hasText: /^2 records$/ }).waitFor();
    await host.idle();
    await selectRecord(page, stream);
    assert.match(
      (await page.locator('.record-meta').textContent()) ?? '',
      /^kimi-k2-instruct-0905 · format kimi_k2 · sse · lines 1–6 · 0 calls · 1 error/,
    );
    assert.ok(((await page.locator('body').textContent()) ?? '').includes('Tool-call markup or arguments in content'));
    await shot(page, 'python-printout-stream');
    await selectRecord(page, completion);
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /chat-completion · line 8 · 1 call · 0 errors, 1 warning/);
    await host.close();
    await done();
  });
});
