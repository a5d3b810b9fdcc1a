/**
 * `analyze --shard I/N`: for N = 1, 2, 3, 7 over the samples and a generated corpus with big files (cut by the
 * records' byte offsets), the shards' records and findings put together — as JSON Lines and as Parquet read with
 * DuckDB — are the whole run's, sorted by file and line: nothing lost, nothing repeated; the share is the same on
 * one thread and on several; standard input and malformed shards are usage errors.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { sink } from '../textSink.ts';
import { REPO } from './builtCli.ts';
import { BAD_LINE, writeBigTrace } from './bigTrace.ts';
import { query, sqlPath } from './duckdb.ts';
import { analyzeCommand } from '../../src/cli/analyzeCommand.ts';
import { parseShard, pathHash, shardOfPath, shardWindow, shareOf } from '../../src/cli/shard.ts';

/** Big files here are 256 KB or more (the CLI's threshold is 8 MB: the same code, a corpus the suite can afford). */
const SPLIT = 256 * 1024;

let dir = '';
let corpus = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-shard-'));
  corpus = join(dir, 'corpus');
  await mkdir(join(corpus, 'big'), { recursive: true });
  // Two big files (each with a malformed line of its own, pretty-printed records and SSE blocks across any cut) and small ones.
  await writeBigTrace(join(corpus, 'big', 'a.jsonl'));
  await writeBigTrace(join(corpus, 'big', 'b.log'));
  for (const f of [
    'kimi-k2-raw-completions.jsonl',
    'malformed-lines.jsonl',
    'anthropic-stream.sse',
    'otel-genai-spans.json',
    'ollama-chat-stream.ndjson',
  ])
    await copyFile(join(REPO, 'samples', f), join(corpus, f));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  lines: string[];
  parquet: string;
}

async function analyze(shard: string | null, jobs: number, name: string): Promise<Run> {
  const out = sink();
  const err = sink();
  const parquet = join(dir, 'out', name);
  const code = await analyzeCommand(
    [join(REPO, 'samples'), corpus],
    { json: true, guided: false, jobs, parquet, shardSplitBytes: SPLIT, ...(shard ? { shard: parseShard(shard) } : {}) },
    out,
    process.stdin,
    err,
  );
  assert.equal(code, 0, err.text());
  return { lines: out.text().split('\n').filter(Boolean), parquet };
}

/** JSON Lines (records and unreadable lines alike) sorted by file and line. */
function sorted(lines: readonly string[]): string[] {
  const key = (l: string) => {
    const o = JSON.parse(l) as { file: string; line: number };
    return [o.file, o.line] as const;
  };
  return [...lines].sort((a, b) => {
    const [fa, la] = key(a);
    const [fb, lb] = key(b);
    return fa < fb ? -1 : fa > fb ? 1 : la - lb || (a < b ? -1 : a > b ? 1 : 0);
  });
}

async function tableRows(dirs: readonly string[], table: string): Promise<unknown[]> {
  const files = dirs.map((d) => sqlPath(join(d, table))).join(', ');
  return query(`SELECT * FROM read_parquet([${files}]) ORDER BY ALL`);
}

test('--shard I/N is 1-based and checked; whole files go by a stable hash of their path, big files by windows that cover them', async () => {
  assert.deepEqual(parseShard('1/1'), { index: 0, count: 1 });
  assert.deepEqual(parseShard('7/7'), { index: 6, count: 7 });
  for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '-1/2', '1/2/3']) assert.throws(() => parseShard(bad), /--shard takes I\/N/);
  // FNV-1a's published test vectors, and the path written with Windows separators or ./ going to the same shard.
  assert.equal(pathHash('a'), 0xe40c292c);
  assert.equal(pathHash('foobar'), 0xbf9cf968);
  assert.equal(pathHash('traces\\day1\\a.jsonl'), pathHash('traces/day1/a.jsonl'));
  assert.equal(pathHash('./traces/a.jsonl'), pathHash('traces/a.jsonl'));
  assert.equal(shardOfPath('samples/kimi-k2-raw-completions.jsonl', 7), pathHash('samples/kimi-k2-raw-completions.jsonl') % 7);
  for (const size of [0, 1, 10, 1_000_003]) {
    for (const n of [1, 2, 3, 7]) {
      const windows = Array.from({ length: n }, (_, i) => shardWindow(size, { index: i, count: n }));
      assert.equal(windows[0]?.start, 0);
      for (let i = 1; i < n; i++) assert.equal(windows[i]?.start, windows[i - 1]?.end);
      assert.ok((windows.at(-1)?.end ?? 0) >= size);
    }
  }
  const share = await shareOf([join(corpus, 'big', 'a.jsonl'), join(corpus, 'otel-genai-spans.json')], { index: 0, count: 3 }, SPLIT);
  assert.ok(share[0]?.window, 'the big file is shared by its bytes');
  await assert.rejects(shareOf(['-'], { index: 0, count: 2 }), /standard input \(-\) has no stable name/);
});

test('for N = 1, 2, 3, 7 the shards together are the whole run, records and findings, nothing lost or repeated', async () => {
  const whole = await analyze(null, 1, 'whole');
  const wholeSorted = sorted(whole.lines);
  assert.ok(
    whole.lines.some((l) => l.includes('"error"') && l.includes('big/a.jsonl')),
    'the big files hold malformed lines',
  );
  assert.ok(
    whole.lines.every((l) => !l.includes(BAD_LINE)),
    'sanity: lines are reported, not echoed',
  );
  const wholeRecords = await tableRows([whole.parquet], 'records.parquet');
  const wholeFindings = await tableRows([whole.parquet], 'findings.parquet');
  assert.ok(wholeRecords.length > 300 && wholeFindings.length > 300, `${wholeRecords.length} records, ${wholeFindings.length} findings`);

  for (const n of [1, 2, 3, 7]) {
    const shards: Run[] = [];
    // One shard of each N on two threads: the share does not depend on --jobs.
    for (let i = 1; i <= n; i++) shards.push(await analyze(`${i}/${n}`, i === 2 ? 2 : 1, join(`n${n}`, `shard-${i}`)));
    const together = sorted(shards.flatMap((s) => s.lines));
    assert.equal(together.length, wholeSorted.length, `N=${n}: ${together.length} lines against ${wholeSorted.length}`);
    assert.deepEqual(together, wholeSorted, `N=${n}: the shards' JSON Lines are not the whole run's`);
    if (n > 1)
      assert.ok(
        shards.filter((s) => s.lines.some((l) => l.includes('big/a.jsonl'))).length === n,
        `N=${n}: every shard takes part of a big file`,
      );
    const dirs = shards.map((s) => s.parquet);
    assert.deepEqual(await tableRows(dirs, 'records.parquet'), wholeRecords, `N=${n}: records.parquet`);
    assert.deepEqual(await tableRows(dirs, 'findings.parquet'), wholeFindings, `N=${n}: findings.parquet`);
  }
  // The docs' query over the shards' files (a glob), for N = 7.
  const doc = await readFile(join(REPO, 'docs/sharded-runs.md'), 'utf8');
  const sql = /```sql\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const perKind = await query(sql.replaceAll("'out/", `'${join(dir, 'out', 'n7')}/`));
  assert.equal(
    perKind.reduce((total, row) => total + Number(row.findings), 0),
    wholeFindings.length,
  );
});

test('the same shard on one thread and on three threads analyses the same records', async () => {
  const one = await analyze('2/3', 1, 'jobs-1');
  const three = await analyze('2/3', 3, 'jobs-3');
  assert.deepEqual(three.lines, one.lines);
});

test("the Kubernetes manifest's shard count is its completions", async () => {
  const manifest = await readFile(join(REPO, 'docs/k8s-indexed-job.yaml'), 'utf8');
  assert.match(manifest, /completionMode: Indexed/);
  const completions = /completions: (\d+)/.exec(manifest)?.[1];
  const shards = /--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/(\d+)"/.exec(manifest)?.[1];
  assert.ok(completions && completions === shards, `completions ${completions}, --shard …/${shards}`);
});

test('the CLI refuses --shard over standard input and a malformed shard, as usage errors', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src/cli/main.ts'), 'analyze', '--no-guided', ...args], {
      cwd: REPO,
      encoding: 'utf8',
      input: '{"toolscope": 1, "id": "x"}\n',
      env: { ...process.env, NO_COLOR: '1' },
    });
  const stdin = run(['--shard', '1/2', '-']);
  assert.equal(stdin.status, 2);
  assert.match(stdin.stderr, /--shard shares out files by their paths, and standard input \(-\) has no stable name/);
  const bad = run(['--shard', '3/2', 'samples']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--shard takes I\/N/);
});
