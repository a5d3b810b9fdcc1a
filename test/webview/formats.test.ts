/**
 * The added tool-call formats in the trace editor, in chromium: samples/other-formats.jsonl in the report
 * page shows each format's markers as marker chips and says which format each record was read in and why; in the
 * VS Code page, choosing a format (the `toolscope.format` setting) re-reads the trace in it.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { EmbeddedTrace } from '../../src/host/view/pageHtml.ts';
import type { RecordView } from '../../src/shared/protocol.ts';
import {
  addReport,
  browserMissing,
  DARK_VSCODE_THEME,
  ensureBuilt,
  js,
  launch,
  openVsCodePage,
  PageServer,
  reportData,
  ROOT,
  selectRecord,
  openPage,
  shot,
} from './harness.ts';

const missing = browserMissing();
const SAMPLE = join(ROOT, 'samples', 'other-formats.jsonl');

/** Per format: a record, the markers its timeline must show as chips, and its header label. */
const FORMATS: Array<{ format: string; record: string; markers: string[] }> = [
  { format: 'hermes', record: 'hermes-clean-call', markers: ['<tool_call>', '</tool_call>'] },
  { format: 'qwen3_coder', record: 'qwen3_coder-clean-call', markers: ['<tool_call>', '</tool_call>'] },
  {
    format: 'deepseek_v31',
    record: 'deepseek_v31-clean-call',
    markers: ['<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool▁call▁end｜>', '<｜tool▁calls▁end｜>'],
  },
  { format: 'harmony', record: 'harmony-clean-call', markers: ['<|channel|>', '<|message|>', '<|constrain|>', '<|call|>'] },
  { format: 'llama', record: 'llama-clean-call', markers: ['<|python_tag|>', '<|eom_id|>'] },
  {
    format: 'glm',
    record: 'glm-clean-call',
    markers: ['<tool_call>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '</tool_call>'],
  },
  {
    format: 'deepseek_dsml',
    record: 'deepseek_dsml-clean-call',
    markers: [
      '<｜DSML｜tool_calls>',
      '<｜DSML｜invoke name="',
      '<｜DSML｜parameter name="',
      '</｜DSML｜parameter>',
      '</｜DSML｜invoke>',
      '</｜DSML｜tool_calls>',
    ],
  },
  { format: 'pythonic', record: 'pythonic-clean-call', markers: ['<function_calls>', '</function_calls>'] },
  { format: 'lfm2', record: 'lfm2-clean-call', markers: ['<|tool_call_start|>', '<|tool_call_end|>'] },
  { format: 'gemma4', record: 'gemma4-clean-call', markers: ['<|channel>', '<channel|>', '<|tool_call>', '<|"|>', '<tool_call|>'] },
  {
    format: 'functiongemma',
    record: 'functiongemma-clean-call',
    markers: ['<start_function_call>', '<escape>', '<end_function_call>'],
  },
  { format: 'mistral', record: 'mistral-clean-call', markers: ['[TOOL_CALLS]', '[CALL_ID]', '[ARGS]'] },
  {
    format: 'minimax_m2',
    record: 'minimax_m2-clean-call',
    markers: ['<minimax:tool_call>', '</minimax:tool_call>'],
  },
  { format: 'minimax_m3', record: 'minimax_m3-clean-call', markers: [']<]minimax[>['] },
  { format: 'granite', record: 'granite-clean-call', markers: ['<tool_call>'] },
  // K3's markup is its three structural tokens around plain tag names (the tag names are ordinary text).
  { format: 'kimi_k3', record: 'kimi_k3-clean-call', markers: ['<|open|>', '<|close|>', '<|sep|>'] },
  {
    format: 'seed_oss',
    record: 'seed_oss-clean-call',
    markers: ['<seed:think>', '</seed:think>', '<seed:tool_call>', '</seed:tool_call>'],
  },
  {
    format: 'hy_v3',
    record: 'hy_v3-clean-call',
    markers: [
      '<think:opensource>',
      '</think:opensource>',
      '<tool_calls:opensource>',
      '<tool_call:opensource>',
      '<tool_sep:opensource>',
      '<arg_key:opensource>',
      '</arg_key:opensource>',
      '<arg_value:opensource>',
      '</arg_value:opensource>',
      '</tool_call:opensource>',
      '</tool_calls:opensource>',
    ],
  },
];

let browser: Browser;
let server: PageServer;
let tmp: string;
let named: EmbeddedTrace;
let detected: EmbeddedTrace;
let namedUrl: string;
let detectedUrl: string;

function viewIn(data: EmbeddedTrace, id: string): RecordView {
  const s = data.summaries.find((x) => x.id === id);
  assert.ok(s, `no record ${id}`);
  const v = data.records[s.key];
  assert.ok(v, id);
  return v;
}

const skip = (t: TestContext) => {
  if (missing) t.skip(missing);
  return Boolean(missing);
};

/** The format label in the record header: its text and its tooltip. */
async function formatLabel(page: Page): Promise<{ text: string; title: string }> {
  const label = page.locator('.record-meta .rec-format');
  return { text: (await label.textContent()) ?? '', title: (await label.getAttribute('title')) ?? '' };
}

describe('other tool-call formats in the trace editor (chromium)', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-formats-'));
    // The same records as a capture without Toolscope's annotation: no meta.format, no meta.parser.
    const unnamed = join(tmp, 'other-formats-unnamed.jsonl');
    const lines = (await readFile(SAMPLE, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    await writeFile(
      unnamed,
      lines
        .map((l) => {
          const r = JSON.parse(l) as { meta?: Record<string, unknown> };
          delete r.meta?.format;
          delete r.meta?.parser;
          return JSON.stringify(r);
        })
        .join('\n') + '\n',
    );
    server = new PageServer();
    await server.start();
    browser = await launch();
    named = await reportData([SAMPLE]);
    detected = await reportData([unnamed]);
    namedUrl = addReport(server, '/other-formats.html', named);
    detectedUrl = addReport(server, '/other-formats-unnamed.html', detected);
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('each format: its markers are marker chips, the header names the format and why', async (t) => {
    if (skip(t)) return;
    const { page, done } = await openPage(browser, namedUrl);
    for (const { format, record, markers } of FORMATS) {
      await selectRecord(page, record);
      const view = viewIn(named, record);
      assert.equal(view.format, format);
      // A token holding a blank line (DSML's `.\n\n` before its block) takes a chip per row: count the tokens shown.
      const shown = new Set(await page.locator('.chip[data-i]').evaluateAll((els) => els.map((e) => e.getAttribute('data-i'))));
      assert.equal(shown.size, view.tokens.length, `${record}: every token is a chip`);
      // A space inside a marker (DSML's `<｜DSML｜invoke name="`) is shown as `·`.
      const chips = (await page.locator('.chip.role-marker').allTextContents()).map((c) => c.replaceAll('·', ' '));
      assert.deepEqual(
        chips,
        view.tokens.filter((tk) => tk.role === 'marker').map((tk) => tk.text),
        `${record}: marker chips`,
      );
      for (const m of markers) {
        const inText =
          view.tokens
            .map((tk) => tk.text)
            .join('')
            .split(m).length - 1;
        assert.ok(inText > 0, `${record}: ${m} is in the completion`);
        assert.equal(chips.filter((c) => c === m).length, inText, `${record}: ${m} is one marker chip each time`);
      }
      // Markers are whole special tokens, never split; the call's own tokens are coloured as such.
      assert.equal(await page.locator('.chip.role-marker.approx').count(), 0, `${record}: markers are not approximate`);
      assert.ok((await page.locator('.chip.role-arguments').count()) > 0, `${record}: argument chips`);
      const label = await formatLabel(page);
      assert.equal(label.text, `format ${format}`);
      assert.match(label.title, new RegExp(`^Tool-call format ${format}: named by the record \\(meta\\.format\\)`));
      // A clean call: no errors; a warning only from the guided what-if (gpt-oss's template writes a space before
      // <|constrain|>, which xgrammar's harmony tag refuses: docs/guided-decoding.md).
      const warnings = view.diagnostics.filter((d) => d.severity === 'warning');
      assert.ok(
        warnings.every((d) => d.kind === 'guided-would-block'),
        `${record}: ${warnings.map((d) => d.kind).join(', ')}`,
      );
      const warned = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
      assert.match(
        (await page.locator('.record-meta').textContent()) ?? '',
        new RegExp(
          `^${view.model?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · format ${format} · native · line \\d+ · 1 call · 0 errors, ${warned}`,
        ),
      );
      // The model writes no call ids in most of these formats: the server's id is not a difference. Mistral's model
      // writes its id after [CALL_ID], compared as any field.
      assert.match(
        (await page.locator('.compare > p').first().textContent()) ?? '',
        /^The client received what the reference parse gives\./,
        record,
      );
      assert.deepEqual(
        await page.locator('.compare-table tr.server-id td').allTextContents(),
        view.writesCallIds ? [] : [`chatcmpl-tool-${format}0`, '(none written)'],
      );
      await shot(page, `format-${format}`);
    }
    // The list says the format too (filterable by it).
    await page.locator('.filter-text input').fill('deepseek_v31');
    assert.match((await page.locator('.list-count').textContent()) ?? '', /^6 of 108 records/);
    await done();
  });

  test('without meta.format: each record is detected, the header says from what', async (t) => {
    if (skip(t)) return;
    const { page, done } = await openPage(browser, detectedUrl);
    for (const s of detected.summaries) assert.equal(s.format, s.id.split('-')[0], s.id);
    for (const { format, record } of FORMATS) {
      await selectRecord(page, record);
      const label = await formatLabel(page);
      assert.equal(label.text, `format ${format}`);
      assert.equal(label.title, `Tool-call format ${format}: detected from its markup in the completion`);
    }
    // No raw completion: the model name tells.
    await selectRecord(page, 'qwen3_coder-invalid-json-arguments');
    await page.locator('.no-completion').waitFor();
    const label = await formatLabel(page);
    assert.equal(label.text, 'format qwen3_coder');
    assert.equal(label.title, 'Tool-call format qwen3_coder: detected from the model "Qwen/Qwen3-Coder-30B-A3B-Instruct"');
    assert.ok(!viewIn(detected, 'qwen3_coder-invalid-json-arguments').diagnostics.some((d) => d.kind === 'bad-call-id'));
    await shot(page, 'format-detected-from-model');
    await done();
  });

  test('VS Code page: choosing a format re-reads the trace in it; the header and the top bar say so', async (t) => {
    if (skip(t)) return;
    const { page, done } = await openPage(browser, null, { theme: 'dark' });
    await page.addInitScript(DARK_VSCODE_THEME);
    const host = await openVsCodePage(page, server, SAMPLE, '/vscode-formats.html');
    await page.locator('.list-count', { hasText: /^108 records$/ }).waitFor();
    await host.idle();
    await selectRecord(page, 'harmony-clean-call');
    assert.equal((await formatLabel(page)).text, 'format harmony');
    assert.doesNotMatch((await page.locator('.topbar .status').textContent()) ?? '', /format/);
    await js(
      page,
      `(() => { window.__heads = []; new MutationObserver(() => window.__heads.push(document.querySelector('.record-head')?.textContent ?? '')).observe(document.body, { subtree: true, childList: true, characterData: true }); })()`,
    );
    // As when the user sets toolscope.format to hermes.
    await host.setFormat('hermes');
    await host.idle();
    await page.locator('.record-title', { hasText: 'harmony-clean-call' }).waitFor();
    await page.locator('.record-meta .rec-format', { hasText: 'format hermes (chosen)' }).waitFor();
    const heads = await js<string[]>(page, 'window.__heads');
    assert.ok(
      heads.some((h) => h.includes('The format changed: analysing again…')),
      heads.slice(0, 5).join(' | '),
    );
    assert.match((await formatLabel(page)).title, /^Tool-call format hermes: chosen by you/);
    assert.match((await page.locator('.topbar .status').textContent()) ?? '', /format: hermes/);
    // Read as Hermes, the Harmony markup is no call: no marker chips, and its special tokens are plain specials.
    assert.equal(await page.locator('.chip.role-marker').count(), 0);
    await shot(page, 'format-chosen-hermes');
    // Back to auto.
    await host.setFormat(undefined);
    await host.idle();
    await page.locator('.record-meta .rec-format', { hasText: /^format harmony$/ }).waitFor();
    assert.ok((await page.locator('.chip.role-marker').count()) > 0);
    assert.doesNotMatch((await page.locator('.topbar .status').textContent()) ?? '', /format/);
    await host.close();
    await done();
  });
});
