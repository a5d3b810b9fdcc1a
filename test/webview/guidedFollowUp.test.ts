/**
 * The trace editor (VS Code page, real TraceSession host) shows a record before its guided what-if answers: the
 * header says the guided checks are pending and no guided finding is listed; once the follow-up arrives, the
 * finding is in the record's diagnostics, its row's badges and the header's counts, and the pending notes are gone.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browserSuite, openPage, openVsCodePage, selectRecord } from './harness.ts';
import { recordWithSchema, traceText } from '../fixtures/hostileSchemas.ts';
import { holdWhatIfs } from '../fixtures/heldWhatIfs.ts';
import { guidedEngine } from '../../src/io/guided/guidedEnginePool.ts';

const SCHEMA = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

describe('guided findings after the first paint', () => {
  const suite = browserSuite('toolscope-guided-follow-up-');

  test('a record painted while its what-if is held gets the finding when the follow-up arrives', async (t) => {
    if (suite.skip(t)) return;
    const trace = join(suite.tmp, 'held.jsonl');
    // The integer is refused by the grammar (TS024) and by ajv (TS005).
    await writeFile(trace, traceText([recordWithSchema('accepted', SCHEMA), recordWithSchema('blocked', SCHEMA, '{"a": 1}')]));
    const held = holdWhatIfs(guidedEngine());
    const { page, done } = await openPage(suite.browser, null, { theme: 'light' });
    const host = await openVsCodePage(page, suite.server, trace, '/guided-follow-up.html');
    try {
      await page.locator('.list-count', { hasText: /^2 records · analysing…$/ }).waitFor();
      await selectRecord(page, 'blocked');
      const row = page.locator('.rec-row', { has: page.locator('.rec-id', { hasText: /^blocked$/ }) });
      const head = page.locator('.record-meta');
      // Painted from the synchronous analysis: the schema error is there, the grammar's verdict is pending.
      await head.locator('.guided-pending').waitFor();
      assert.equal(await head.locator('.count-error').textContent(), '1 error');
      const warnings = parseInt((await head.locator('.count-warning').textContent()) ?? '', 10);
      assert.equal((await page.locator('.diag-list .diag-code', { hasText: /^TS005$/ }).count()) > 0, true);
      assert.equal(await page.locator('.diag-list .diag-code', { hasText: /^TS02[45]$/ }).count(), 0);
      assert.equal(await row.locator('.guided-pending').count(), 1);
      assert.equal(await row.locator('.kind-badge', { hasText: /^TS024$/ }).count(), 0);
      assert.ok(held.asked >= 1);

      held.release();
      const blocked = page.locator('.diag-list li', { has: page.locator('.diag-code', { hasText: /^TS024$/ }) }).first();
      await blocked.waitFor({ state: 'attached' });
      assert.match((await blocked.locator('.diag-message').textContent()) ?? '', /guided decoding .* would have stepped in/);
      await head.locator('.guided-pending').waitFor({ state: 'detached' });
      // TS024 is a warning.
      assert.equal(await head.locator('.count-warning').textContent(), `${warnings + 1} warning${warnings ? 's' : ''}`);
      assert.equal(await head.locator('.count-error').textContent(), '1 error');
      await row.locator('.kind-badge', { hasText: /^TS024$/ }).waitFor();
      assert.equal(await row.locator('.guided-pending').count(), 0);
      await page.locator('.list-count', { hasText: /^2 records$/ }).waitFor();
      // The other row was completed too (an accepted completion is no badge, and no longer pending).
      const other = page.locator('.rec-row', { has: page.locator('.rec-id', { hasText: /^accepted$/ }) });
      assert.equal(await other.locator('.guided-pending').count(), 0);
    } finally {
      held.release();
      held.restore();
      await host.close();
    }
    await done();
  });
});
