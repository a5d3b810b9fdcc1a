/**
 * Bidirectional control characters in chromium: a trace whose record id, tool name, content and raw JSON hold
 * U+202E and friends. The page applies none of them: each is a visible escape with a tooltip naming it, in the
 * record list, the inspector, the timeline and attributes alike (Trojan Source-style spoofing).
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { bidiPieces, escapeBidiControls } from '../../webview/bidiControls.ts';
import { glyphFor } from '../../webview/layout.ts';
import { addReport, browserMissing, ensureBuilt, js, launch, openPage, PageServer, reportData, selectRecord } from './harness.ts';

const missing = browserMissing();
const RLO = '\u202e';
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const id = `admin${RLO}txt.exe`;
const tool = `get_${RLO}rehtaew`;
const record = {
  toolscope: 1,
  id,
  request: {
    model: 'm',
    messages: [{ role: 'user', content: `Weather?${'\u2066'}hidden${'\u2069'}` }],
    tools: [{ type: 'function', function: { name: tool, parameters: { type: 'object' } } }],
  },
  completion: {
    text: `Sure.${'\u200f'} <|tool_calls_section_begin|><|tool_call_begin|>functions.${tool}:0<|tool_call_argument_begin|>{"city":"Paris${RLO}"}<|tool_call_end|><|tool_calls_section_end|>`,
  },
};

test('the helpers: pieces, attribute escapes, and a one-cell timeline glyph', () => {
  assert.deepEqual(bidiPieces(`a${RLO}b`), [
    { text: 'a', control: false },
    { text: RLO, control: true },
    { text: 'b', control: false },
  ]);
  assert.equal(escapeBidiControls(`a${RLO}b\u2066`), 'a\\u202Eb\\u2066');
  for (const code of [0x061c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069]) assert.equal(glyphFor(code)?.length, 1, code.toString(16));
});

describe('bidi controls in chromium', () => {
  let browser: Browser;
  let server: PageServer;
  let tmp: string;
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-bidi-'));
    await writeFile(join(tmp, 'bidi.jsonl'), JSON.stringify(record) + '\n');
    server = new PageServer();
    await server.start();
    browser = await launch();
  });
  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });
  const skip = (t: TestContext) => {
    if (missing) t.skip(missing);
    return Boolean(missing);
  };

  test('no control character is applied anywhere on the page; each shows as an escape with a tooltip', async (t) => {
    if (skip(t)) return;
    const url = addReport(server, '/bidi.html', await reportData([join(tmp, 'bidi.jsonl')]));
    const { page, done } = await openPage(browser, url);
    await selectRecord(page, 'admin\\u202Etxt.exe');
    for (const tab of ['timeline', 'response', 'request']) {
      const button = page.locator(`.tab[data-tab="${tab}"]`);
      if ((await button.count()) && !(await button.isHidden())) await button.click();
      // Every text node and attribute value in the document, the hidden panels' too.
      const leaks = await js<string[]>(
        page,
        `(() => {
          const re = new RegExp(${JSON.stringify(CONTROLS.source)}, 'u');
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
          for (let n = walker.currentNode; n; n = walker.nextNode()) {
            if (n.nodeType === Node.TEXT_NODE && re.test(n.nodeValue || '') && n.parentElement?.tagName !== 'SCRIPT') found.push('text: ' + JSON.stringify(n.nodeValue).slice(0, 80));
            if (n instanceof Element) for (const a of n.attributes) if (re.test(a.value)) found.push(n.tagName + '[' + a.name + ']');
          }
          return found;
        })()`,
      );
      assert.deepEqual(leaks, [], `${tab}: control characters applied`);
    }
    const shown = page.locator('.bidi-control');
    assert.ok((await shown.count()) >= 3, 'escapes in the list, the title and the inspector');
    assert.equal(await shown.first().textContent(), '\\u202E');
    assert.match((await shown.first().getAttribute('title')) ?? '', /U\+202E RIGHT-TO-LEFT OVERRIDE/u);
    await done();
  });
});
