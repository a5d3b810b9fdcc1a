/**
 * `report` over one big file cut into ranges of its records on several worker threads (traceJobs.ts,
 * parallelReport.ts) builds exactly the report one thread builds — record order, keys, entry and line numbers, the
 * malformed line's error under its own number, labels, the what-if's findings — with multi-line records and SSE
 * blocks whole across the cuts; in process (the report's data) and through the built CLI (the HTML).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, reportText, runBuiltCli } from './builtCli.ts';
import { writeBigTrace } from './bigTrace.ts';
import { traceJobs, traceThreads } from '../../src/cli/traceJobs.ts';
import { embeddedTracesInParallel } from '../../src/cli/parallelReport.ts';
import { embeddedTraces } from '../../src/host/view/embeddedTrace.ts';
import type { AnalysisOptions } from '../../src/core/analysis.ts';
import { reportPageHtml, type PageData } from '../../src/host/view/pageHtml.ts';

let dir = '';
let big = '';
/** The 1-based line of the big file's own malformed line. */
let badLine = 0;
const small = join(REPO, 'samples', 'malformed-lines.jsonl');

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-report-ranges-'));
  big = join(dir, 'big.jsonl');
  badLine = await writeBigTrace(big);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The report's data as one thread builds it (reportCommand.ts: each file labelled by its path), as JSON. */
async function oneThread(files: string[], title: string, options: AnalysisOptions): Promise<string> {
  return JSON.stringify(
    await embeddedTraces(
      files.map((path) => ({ path, label: path })),
      title,
      'report',
      options,
    ),
  );
}

/** The report page around data (the workers send their record views as the page's JSON text). */
const page = (data: PageData) => reportPageHtml({ script: '', style: '', data, title: 'report', nonce: 'nonce' });
const pageOf = (json: string) => page(JSON.parse(json) as PageData);

test('the big file is cut into ranges for report as for analyze', async () => {
  assert.equal(await traceThreads([big], 3), 3);
  let ranges = 0;
  for await (const job of traceJobs([big], 3)) if ('range' in job.message) ranges++;
  assert.ok(ranges >= 8, `${ranges} ranges`);
});

test('in process: the report of one big file built over ranges on 2 and 3 threads is the one thread builds', async () => {
  const options = { guided: false };
  const one = await oneThread([big], big, options);
  for (const threads of [2, 3])
    assert.equal(page(await embeddedTracesInParallel([big], big, options, threads)), pageOf(one), `${threads} threads`);
  const data = JSON.parse(one) as {
    info: { entries: number; fileName: string };
    summaries: Array<{ key: string; entry: number; line: number; id: string }>;
    lineErrors: Array<{ line: number; message: string }>;
  };
  assert.equal(data.info.fileName, big);
  // The malformed line under its own number, and the records just before and after it loaded.
  assert.match(data.lineErrors.find((e) => e.line === badLine)?.message ?? '', new RegExp(`^line ${badLine}: `));
  assert.ok(data.summaries.some((s) => s.line === badLine - 1));
  assert.ok(data.summaries.some((s) => s.line === badLine + 1));
  // Multi-line records all over the file, and keys numbered by the whole file's entries.
  assert.ok(data.summaries.filter((s) => s.id.startsWith('pretty-')).length >= 3);
  assert.ok((data.summaries.at(-1)?.entry ?? 0) > data.info.entries / 2);
  assert.ok(data.summaries.every((s) => s.key.startsWith(`${s.entry}:`)));
});

test('in process: a big file among small ones, and with the what-if, the same report on several threads', async () => {
  const files = [small, big, small];
  const title = `${files.length} traces (${files.length} files)`;
  assert.equal(
    page(await embeddedTracesInParallel(files, title, { guided: false }, 3)),
    pageOf(await oneThread(files, title, { guided: false })),
  );
  const guided = await oneThread([big], big, {});
  assert.match(guided, /"kind":"guided-(would-block|accepts)"/);
  assert.equal(page(await embeddedTracesInParallel([big], big, {}, 2)), pageOf(guided));
});

test('the built CLI: report over one big file with --jobs 2 and 3 writes the HTML --jobs 1 writes', async () => {
  const run = (jobs: number, extra: string[]) => {
    const out = join(dir, `report-${jobs}.html`);
    const r = runBuiltCli(['report', big, '-o', out, '-v', '--jobs', String(jobs), ...extra]);
    return { ...r, out };
  };
  for (const extra of [['--no-guided'], []]) {
    const one = run(1, extra);
    assert.equal(one.status, 0, one.stderr);
    const html = await reportText(one.out);
    assert.ok(html.includes(`"line":${badLine},`), 'the malformed line is in the report');
    for (const jobs of extra.length ? [2, 3] : [2]) {
      const many = run(jobs, extra);
      assert.equal(many.status, one.status, many.stderr);
      assert.equal(many.stdout.replace(many.out, one.out), one.stdout);
      assert.equal(many.stderr, one.stderr);
      assert.equal(await reportText(many.out), html, `same report on ${jobs} threads ${extra.join(' ')}`);
    }
  }
});
