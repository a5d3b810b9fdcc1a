/**
 * The record header says where token ids come from, in a real browser (Debian chromium): re-encoded by a user's
 * tiktoken.model (`--tokenizer` on a Kimi folder), o200k_harmony built in, approximate with what to set.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { EmbeddedTrace } from '../../src/host/view/pageHtml.ts';
import { addReport, browserMissing, ensureBuilt, launch, openPage, PageServer, reportData, selectRecord } from './harness.ts';
import { FIRST_SPECIAL, writeKimiFolder } from '../core/tokens/tokenizerFiles.ts';

const missing = browserMissing();

describe('token source line in chromium', () => {
  let browser: Browser;
  let server: PageServer;
  let tmp: string;
  let url: string;
  let data: EmbeddedTrace;

  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-token-source-'));
    const folder = writeKimiFolder(join(tmp, 'Kimi-K2-Instruct'));
    const trace = join(tmp, 'trace.jsonl');
    const records = [
      {
        toolscope: 1,
        id: 'kimi-call',
        completion: {
          text: 'hello world<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a":1}<|tool_call_end|><|tool_calls_section_end|>',
        },
      },
      {
        toolscope: 1,
        id: 'gpt-oss-final',
        meta: { model: 'openai/gpt-oss-20b' },
        completion: { text: '<|channel|>final<|message|>Done 👩<|return|>' },
      },
      { toolscope: 1, id: 'hermes-plain', meta: { format: 'hermes' }, completion: { text: 'Sure.' } },
    ];
    await writeFile(trace, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    server = new PageServer();
    await server.start();
    browser = await launch();
    // The Kimi folder for Kimi records only: the Hermes record stays approximate.
    data = await reportData([trace], 'tokens', { tokenizers: { byName: { kimi_k2: folder } } });
    url = addReport(server, '/tokens.html', data);
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  function skip(t: TestContext): boolean {
    if (missing) t.skip(missing);
    return Boolean(missing);
  }

  test('re-encoded, built in and approximate records each say so above the timeline; ids in chip titles', async (t) => {
    if (skip(t)) return;
    const { page, done } = await openPage(browser, url);
    await selectRecord(page, 'kimi-call');
    assert.match(
      (await page.locator('.token-source').textContent()) ?? '',
      /^tokens: tiktoken\.model \(Kimi-K2-Instruct\) \(exact, re-encoded/u,
    );
    assert.equal(await page.locator('.approximate-banner').count(), 0);
    assert.equal(await page.locator('.chip.approx').count(), 0);
    assert.match((await page.locator('#tok-0').getAttribute('title')) ?? '', /id 259\b/u);
    assert.match((await page.locator('#tok-2').getAttribute('title')) ?? '', new RegExp(`id ${FIRST_SPECIAL + 1}\\b`, 'u'));

    await selectRecord(page, 'gpt-oss-final');
    assert.match((await page.locator('.token-source').textContent()) ?? '', /^tokens: o200k_harmony \(exact, re-encoded/u);
    // " 👩" comes as two byte tokens: the first holds the space and half the emoji, the second ends it.
    const record = Object.values(data.records).find((r) => r?.id === 'gpt-oss-final');
    assert.deepEqual(
      record?.tokens.filter((tk) => tk.bytes !== undefined).map((tk) => [tk.text, tk.bytes]),
      [
        [' ', '\\x20\\xF0\\x9F\\x91'],
        ['👩', '\\xA9'],
      ],
    );
    assert.ok(!((await page.locator('.timeline').textContent()) ?? '').includes('\uFFFD'));

    await selectRecord(page, 'hermes-plain');
    assert.equal(await page.locator('.token-source').textContent(), 'tokens: approximate — set toolscope.tokenizer');
    assert.equal(await page.locator('.approximate-banner').count(), 1);
    await done();
  });
});
