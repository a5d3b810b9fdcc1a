/**
 * The trace editor (VS Code page, real TraceSession host) on a trace whose first record aborts xgrammar: that
 * record shows `guided-unavailable` with the engine's reason, and the normal record opened after it still shows
 * its guided finding — the host's grammar engine was replaced, not lost (issue #13).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browserSuite, openPage, openVsCodePage, selectRecord, shot } from './harness.ts';
import { ABORTS_IN_ENGINE, recordWithSchema, traceText } from '../fixtures/hostileSchemas.ts';

const GOOD = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

describe('guided-unavailable in the trace editor', () => {
  const suite = browserSuite('toolscope-guided-unavailable-');

  test('an aborting record, then a normal one: the normal one keeps its guided finding', async (t) => {
    if (suite.skip(t)) return;
    const trace = join(suite.tmp, 'hostile.jsonl');
    // The normal record's argument has the wrong type: the grammar would have blocked it (TS024).
    await writeFile(
      trace,
      traceText([recordWithSchema('aborts-xgrammar', ABORTS_IN_ENGINE), recordWithSchema('normal', GOOD, '{"a": 1}')]),
    );
    const { page, done } = await openPage(suite.browser, null, { theme: 'light' });
    const host = await openVsCodePage(page, suite.server, trace, '/guided-unavailable.html');
    await page.locator('.list-count', { hasText: /^2 records$/ }).waitFor();
    await host.idle();

    await selectRecord(page, 'aborts-xgrammar');
    const unavailable = page.locator('.diag-list li', { has: page.locator('.diag-code', { hasText: 'TS027' }) }).first();
    await unavailable.waitFor({ state: 'attached' });
    assert.match(
      (await unavailable.locator('.diag-message').textContent()) ?? '',
      /^guided-decoding what-if skipped: xgrammar aborted: Cannot find field \$defs/,
    );
    assert.equal(await page.locator('.diag-code', { hasText: /^TS02[45]$/ }).count(), 0);
    await shot(page, 'guided-unavailable');

    await selectRecord(page, 'normal');
    const blocked = page.locator('.diag-list li', { has: page.locator('.diag-code', { hasText: 'TS024' }) }).first();
    await blocked.waitFor({ state: 'attached' });
    assert.match((await blocked.locator('.diag-message').textContent()) ?? '', /guided decoding .* would have stepped in/);
    assert.equal(await page.locator('.diag-code', { hasText: 'TS027' }).count(), 0);
    await host.close();
    await done();
  });
});
