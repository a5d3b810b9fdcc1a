/**
 * Reading a Langfuse Parquet export of 100,000 observations (langfuseParquet.ts) through the reader `analyze` and
 * the editor use (readTraceItems: hyparquet a row group at a time, each row through the Langfuse importer): MB of
 * file a second, and the reading process's peak RSS (a fresh child, so the writer's memory does not count). The
 * issue's goal: ≥ 20 MB/s and under 500 MB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTraceItems } from '../src/io/trace/traceIndex.ts';
import { parquetFile } from '../src/io/trace/parquetRows.ts';
import { writeLangfuseObservations } from './langfuseParquet.ts';

export const TABLE_CHILD_FLAG = '--table-import-child';

/** In the child: read the file, print seconds, records and peak RSS as JSON. */
export async function tableImportChild(path: string): Promise<void> {
  const started = process.hrtime.bigint();
  let records = 0;
  let errors = 0;
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'record') records++;
    else errors++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, records, errors, maxRssKb: process.resourceUsage().maxRSS }) + '\n');
}

export async function benchTableImport(log: (line: string) => void, rows = 100_000): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-table-bench-'));
  try {
    const file = join(dir, 'observations.parquet');
    writeLangfuseObservations(file, rows);
    const bytes = statSync(file).size;
    const { metadata } = await parquetFile(file);
    // What the pages hold once inflated: the text a JSONL export of the same rows would hold, about.
    const inflated = metadata.row_groups.reduce(
      (sum, g) => sum + g.columns.reduce((s, c) => s + Number(c.meta_data?.total_uncompressed_size ?? 0), 0),
      0,
    );
    const runs: Array<{ seconds: number; records: number; errors: number; maxRssKb: number }> = [];
    for (let i = 0; i < 3; i++) {
      const r = spawnSync(process.execPath, [process.argv[1] ?? 'dist/bench.js', TABLE_CHILD_FLAG, file], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`table import child failed: ${r.stderr}`);
      runs.push(JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}'));
    }
    const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const mb = bytes / 1e6;
    log(
      `Langfuse Parquet export, ${rows} observations (${best.records} generations), ${mb.toFixed(1)} MB, ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(1)}:`,
    );
    log(
      `  read: ${(mb / best.seconds).toFixed(1)} MB/s of file bytes (best of 3: ${best.seconds.toFixed(2)} s; goal ≥ 20 MB/s), ${(inflated / 1e6 / best.seconds).toFixed(1)} MB/s of inflated pages (${(inflated / 1e6).toFixed(0)} MB: Snappy and dictionaries shrink these rows ${(inflated / bytes).toFixed(0)}×)`,
    );
    log(`  peak RSS of the reading process: ${Math.max(...runs.map((r) => r.maxRssKb / 1024)).toFixed(0)} MB (goal < 500 MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
