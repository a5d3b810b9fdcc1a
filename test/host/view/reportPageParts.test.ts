/**
 * The report page written in pieces (pageHtml.ts `reportPageParts`): joined, the pieces are the page with the data
 * as one `scriptSafeJson` of it, member order and all; a record view handed in as its script-safe JSON text (as the
 * report's worker threads send them) writes the same bytes as the view itself; hostile text stays inert.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { embeddedTraces, serializedViews } from '../../../src/host/view/embeddedTrace.ts';
import { reportPageHtml, reportPageParts, scriptSafeJson, type PageData } from '../../../src/host/view/pageHtml.ts';

const SAMPLES = join(import.meta.dirname, '../../../samples');

/** The page as it was written before it came in pieces: the data as one script-safe JSON text. */
function wholePage(data: unknown): string {
  const html = reportPageHtml({
    script: 'app()',
    style: 'body{}',
    data: { info: {}, summaries: [], lineErrors: [], records: {} } as unknown as PageData,
    title: 'T',
    nonce: 'N',
  });
  return html.replace('{"info":{},"summaries":[],"lineErrors":[],"records":{}}', () => scriptSafeJson(data));
}

const parts = (data: PageData) => [...reportPageParts({ script: 'app()', style: 'body{}', data, title: 'T', nonce: 'N' })];

test("the samples' report in pieces is the page with the data as one JSON text; views as text write the same", async () => {
  const data = await embeddedTraces(
    ['kimi-k2-raw-completions.jsonl', 'malformed-lines.jsonl'].map((f) => ({ path: join(SAMPLES, f), label: f })),
    'samples',
    'report',
    { guided: false },
  );
  assert.ok(Object.keys(data.records).length > 5);
  const pieces = parts(data);
  assert.ok(pieces.length > Object.keys(data.records).length, 'a piece per record view');
  assert.equal(pieces.join(''), wholePage(data));
  assert.equal(parts(serializedViews(data)).join(''), wholePage(data));
});

test('member order, integer-like keys, undefined members, empty records and hostile text: as JSON.stringify writes them', () => {
  const data = {
    info: { fileName: '</script><script>alert(1)</script>', note: undefined, sep: '\u2028\u2029&<>' },
    summaries: [{ key: 'b' }, { key: '10' }, { key: '2' }],
    lineErrors: [],
    records: { b: { key: 'b', text: '<!--' }, 10: { key: '10' }, 2: { key: '2', gone: undefined }, x: undefined },
    extra: undefined,
  } as unknown as PageData;
  const html = parts(data).join('');
  assert.equal(html, wholePage(data));
  assert.equal((html.match(/<\/script>/g) ?? []).length, 2, 'only the two real script elements close');
  const empty = { info: {}, summaries: [], lineErrors: [], records: {} } as unknown as PageData;
  assert.equal(parts(empty).join(''), wholePage(empty));
});
