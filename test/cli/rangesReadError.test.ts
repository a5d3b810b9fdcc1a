/**
 * A read error part-way through a big file while it is being indexed into ranges (an EIO past the first 16 MB,
 * injected: failingReads.ts) ends `analyze` and `report` with the clean "cannot read FILE: reason" of an unreadable
 * file and exit status 2, not an internal error; `analyze` keeps the records of the ranges it had already cut, in
 * order, and goes on with the next file. In process and through the built CLI.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sink } from '../textSink.ts';
import { REPO, runBuiltCli } from './builtCli.ts';
import { failReadsFrom, failingReadsEnv } from './failingReads.ts';
import { analyzeCommand } from '../../src/cli/analyzeCommand.ts';
import { embeddedTracesInParallel } from '../../src/cli/parallelReport.ts';

/**
 * Past the first 16 MiB the file is indexed in (traceRanges.ts), where the next 2 MiB read starts: the failure comes
 * once ranges have gone out.
 */
const FAIL_AT = 17 * 1024 * 1024;
const REASON = 'EIO: i/o error, read';
const small = join(REPO, 'samples', 'malformed-lines.jsonl');

let dir = '';
let big = '';

/** 20 MB of cheap lines (each an unrecognised object: a line error), so that analysing 16 MB of them is quick. */
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-ranges-eio-'));
  big = join(dir, 'big.jsonl');
  const line = JSON.stringify({ pad: 'x'.repeat(4000) });
  await writeFile(big, `${line}\n`.repeat(Math.ceil(20e6 / (line.length + 1))));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The 1-based line numbers of `analyze --json`'s output lines for `file`. */
function linesOf(stdout: string, file: string): number[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { file: string; line: number })
    .filter((r) => r.file === file)
    .map((r) => r.line);
}

test('in process: analyze stops reading the big file with "cannot read FILE: reason", keeps what it had, reads on', async () => {
  const restore = await failReadsFrom(FAIL_AT);
  try {
    for (const jobs of [1, 2]) {
      const out = sink();
      const err = sink();
      const code = await analyzeCommand([big, small], { guided: false, json: true, jobs }, out, process.stdin, err);
      assert.equal(code, 2, `exit status on ${jobs} thread(s)`);
      assert.equal(err.text(), `toolscope: cannot read ${big}: ${REASON}\n`, `the error on ${jobs} thread(s)`);
      // The next file is read all the same.
      assert.ok(linesOf(out.text(), small).length > 0);
      const kept = linesOf(out.text(), big);
      // One thread indexes the whole file before the first record; several had the first ranges out: in order.
      if (jobs === 1) assert.equal(kept.length, 0);
      else {
        assert.ok(kept.length > 1000, `${kept.length} lines kept`);
        assert.deepEqual(
          kept,
          kept.map((_, i) => i + 1),
        );
      }
    }
  } finally {
    restore();
  }
});

test('in process: report over ranges fails with the file and the reason', async () => {
  const restore = await failReadsFrom(FAIL_AT);
  try {
    await assert.rejects(embeddedTracesInParallel([big], big, { guided: false }, 2), { message: `${big}: ${REASON}` });
  } finally {
    restore();
  }
});

test('the built CLI: the same clean errors, exit status 2, for analyze and report', () => {
  const env = failingReadsEnv(FAIL_AT);
  const analyze = runBuiltCli(['analyze', big, '--json', '--no-guided', '--jobs', '2'], env);
  assert.equal(analyze.stderr, `toolscope: cannot read ${big}: ${REASON}\n`);
  assert.equal(analyze.status, 2);
  assert.ok(linesOf(analyze.stdout, big).length > 1000);
  const out = join(dir, 'report.html');
  const report = runBuiltCli(['report', big, '-o', out, '--no-guided', '--jobs', '2'], env);
  assert.equal(report.stderr, `toolscope: cannot read the traces: ${big}: ${REASON}\n`);
  assert.equal(report.status, 2);
});
