/**
 * One big file analysed in ranges of its records on several worker threads (traceJobs.ts) writes exactly what one
 * thread writes — JSON Lines and the readable report with its summary — with a malformed line in the middle
 * reported under its own line number and everything else loaded, and multi-line records and SSE blocks whole
 * across the cuts; in process and through the built CLI.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sink } from '../textSink.ts';
import { REPO, runBuiltCli } from './builtCli.ts';
import { writeBigTrace } from './bigTrace.ts';
import { analyzeCommand } from '../../src/cli/analyzeCommand.ts';
import { AnalyzeProgress } from '../../src/cli/analyzeProgress.ts';
import { traceJobs, traceThreads, type TraceJob } from '../../src/cli/traceJobs.ts';
import { inJobOrder } from '../../src/cli/fileWorkerPool.ts';
import { ANALYZE_WORKER, type AnalyzeWorkerData } from '../../src/cli/analyzeWorkerProtocol.ts';
import { REPORT_WORKER, type ReportWorkerData } from '../../src/cli/reportWorkerProtocol.ts';

const repo = REPO;

let dir = '';
let big = '';
/** The 1-based line of BAD_LINE in `big`. */
let badLine = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-ranges-cli-'));
  big = join(dir, 'big.jsonl');
  badLine = await writeBigTrace(big);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function analyze(options: Parameters<typeof analyzeCommand>[1]) {
  const out = sink();
  const err = sink();
  const code = await analyzeCommand([big], { guided: false, ...options }, out, process.stdin, err);
  return { code, stdout: out.text(), stderr: err.text() };
}

test('the big file is cut into ranges, and some cut falls where a multi-line entry had to move whole to the next range', async () => {
  assert.equal(await traceThreads([big], 3), 3);
  assert.equal(await traceThreads([big], 1), 1);
  const jobs: TraceJob[] = [];
  for await (const job of traceJobs([big], 3)) jobs.push(job);
  assert.ok(jobs.length >= 8, `${jobs.length} ranges`);
  const ranges = jobs.map((j) => ('range' in j.message ? j.message.range : null));
  assert.ok(ranges.every((r) => r !== null));
  assert.deepEqual(
    jobs.map((j) => j.endsFile),
    jobs.map((_, i) => i === jobs.length - 1),
  );
  assert.ok(ranges.slice(1).some((r) => (r?.entries[0]?.lastLine ?? 0) > (r?.entries[0]?.line ?? 0)));
});

test('several threads over one big file write the same bytes as one, JSON and readable; the bad line keeps its number', async () => {
  for (const options of [{ json: true }, { json: false, verbose: true, ignore: ['marker-whitespace' as const] }]) {
    const one = await analyze({ ...options, jobs: 1 });
    for (const jobs of [2, 3]) {
      const many = await analyze({ ...options, jobs });
      assert.equal(many.stdout, one.stdout, `same output for ${JSON.stringify(options)} on ${jobs} threads`);
      assert.equal(many.stderr, one.stderr);
      assert.equal(many.code, one.code);
    }
    if (options.json) {
      const rows = one.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { line: number; error?: string; id?: string });
      const bad = rows.find((r) => r.line === badLine);
      assert.ok(bad?.error, `line ${badLine} is reported as unreadable`);
      assert.match(bad.error, new RegExp(`^line ${badLine}: `));
      // Everything around it loaded: the records on the lines just before and after it.
      assert.ok(rows.find((r) => r.line === badLine - 1)?.id);
      assert.ok(rows.find((r) => r.line === badLine + 1)?.id);
      assert.ok(rows.filter((r) => r.id?.startsWith('pretty-')).length >= 3);
    } else {
      assert.match(one.stdout, new RegExp(`unreadable line ${badLine}: `));
      assert.equal(one.stdout.split(big).length, 2, 'the file is named once');
    }
  }
});

test('a big file among small ones: cut into ranges, the small ones whole, all in the order named; same exit status under --fail-on', async () => {
  const small = join(repo, 'samples', 'malformed-lines.jsonl');
  const run = async (jobs: number) => {
    const out = sink();
    const err = sink();
    const code = await analyzeCommand([small, big, small], { guided: false, failOn: 'warning', jobs }, out, process.stdin, err);
    return { code, stdout: out.text(), stderr: err.text() };
  };
  const one = await run(1);
  const three = await run(3);
  assert.equal(three.stdout, one.stdout);
  assert.equal(three.stderr, one.stderr);
  assert.equal(one.code, 1);
  assert.equal(three.code, one.code);
  assert.equal(one.stdout.split(`${small}\n`).length, 3, 'the small file twice, around the big one');
});

test('memory stays bounded: the pool draws at most two jobs per thread ahead of the oldest one not yet written (analyze and report)', async () => {
  const analyzeData: AnalyzeWorkerData = { kind: ANALYZE_WORKER, options: { guided: false, json: true }, isTTY: false };
  const reportData: ReportWorkerData = { kind: REPORT_WORKER, options: { guided: false } };
  for (const data of [analyzeData, reportData]) {
    let drawn = 0;
    let written = 0;
    let most = 0;
    async function* counted() {
      for await (const job of traceJobs([big], 2)) {
        drawn++;
        most = Math.max(most, drawn - written);
        yield job;
      }
    }
    await inJobOrder<TraceJob, { index: number }>(counted(), data, 2, async (r, job) => {
      assert.equal(r.index, written);
      assert.equal(job.index, written);
      assert.ok(!('error' in r), data.kind);
      written++;
      // A slow writer: the threads would run ahead without the bound.
      await new Promise((resolve) => setTimeout(resolve, 30));
    });
    assert.equal(written, drawn);
    assert.ok(drawn >= 8);
    assert.equal(most, 4, data.kind);
  }
});

test('with the what-if: several threads over one big file write the same bytes as one', async () => {
  const one = await analyze({ json: true, guided: true, jobs: 1 });
  const two = await analyze({ json: true, guided: true, jobs: 2 });
  assert.ok(one.stdout.includes('"guided-'));
  assert.equal(two.stdout, one.stdout);
  assert.equal(two.code, one.code);
});

test('progress: one file on several threads shows it (on a terminal), one file on one thread does not', async () => {
  const tty = { isTTY: true, write: () => true };
  assert.notEqual(await AnalyzeProgress.forRun([big], tty, 2), null);
  assert.equal(await AnalyzeProgress.forRun([big], tty, 1), null);
  let now = 0;
  const written: string[] = [];
  const p = new AnalyzeProgress(1, 3e6, { write: (t: string) => written.push(t) }, () => now);
  now = 1500;
  p.rangeDone(1e6, 40);
  p.fileDone(2e6, 60);
  assert.equal(written[0], '\r\u001b[Ktoolscope: 0/1 files, 1.0/3.0 MB, 40 records, 0.7 MB/s');
});

test('the built CLI over one big file: --jobs 2 writes what --jobs 1 writes', () => {
  const run = (args: string[]) => runBuiltCli(['analyze', big, ...args]);
  for (const args of [['--json', '--no-guided'], ['-v']]) {
    const one = run([...args, '--jobs', '1']);
    const two = run([...args, '--jobs', '2']);
    assert.equal(one.status, 0, one.stderr);
    assert.ok(one.stdout.length > 100_000);
    assert.equal(two.stdout, one.stdout, `same output for ${args.join(' ')}`);
    assert.equal(two.stderr, one.stderr);
    assert.equal(two.status, one.status);
  }
});
