/** `npm run bench`: performance figures as sizes and ratios (DESIGN §9). Budgets are reported, not asserted. */
import { benchParser } from './parserBench.ts';
import { benchTraceIndex } from './traceIndexBench.ts';
import { benchReplay } from './replayBench.ts';
import { benchProxy } from './proxyBench.ts';
import { benchGuided, benchGuidedFormats, benchGuidedWorker, benchRecordOverhead } from './guidedBench.ts';
import { benchVllmProfiles } from './vllmProfilesBench.ts';
import { benchTokenizers } from './tokenizerBench.ts';
import { benchFaults } from './faultsBench.ts';
import { MEMORY_CHILD_FLAG, benchMemory, memoryChild } from './memoryBench.ts';
import { benchBesideVllmOnly, benchCorpusOnly, benchParquetOnly, benchProcess } from './processBench.ts';
import { benchCodeCache } from './codeCacheBench.ts';
import {
  benchEditorTrace,
  EDITOR_LIST_CHILD_FLAG,
  EDITOR_TRACE_CHILD_FLAG,
  editorListChild,
  editorTraceChild,
} from './editorTraceBench.ts';
import { benchTableImport, TABLE_BREAKDOWN_FLAG, TABLE_CHILD_FLAG, tableImportBreakdown, tableImportChild } from './tableImportBench.ts';

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(line + '\n');
  log(`toolscope bench — node ${process.version}, ${new Date().toISOString()}`);
  log('');
  await benchProcess(log);
  log('');
  benchCodeCache(log);
  log('');
  benchParser(log);
  log('');
  await benchTraceIndex(log);
  log('');
  await benchReplay(log);
  log('');
  await benchProxy(log);
  log('');
  await benchGuided(log);
  await benchGuidedWorker(log);
  await benchRecordOverhead(log);
  log('');
  await benchGuidedFormats(log);
  log('');
  benchVllmProfiles(log);
  log('');
  benchTokenizers(log);
  log('');
  await benchFaults(log);
  log('');
  await benchMemory(log);
  log('');
  await benchTableImport(log);
  log('');
  await benchEditorTrace(log);
}

/** `bench.js --memory-child FILE [LIMIT]`: one huge-completion measurement in a fresh process (memoryBench.ts). */
async function entry(): Promise<void> {
  const [flag, path, limit] = process.argv.slice(2);
  if (flag === MEMORY_CHILD_FLAG && path) return memoryChild(path, limit ? Number(limit) : undefined);
  if (flag === TABLE_CHILD_FLAG && path) return tableImportChild(path);
  if (flag === EDITOR_TRACE_CHILD_FLAG && path) return editorTraceChild(path);
  if (flag === EDITOR_LIST_CHILD_FLAG && path) return editorListChild(path, limit ? Number(limit) : undefined);
  // `bench.js --editor-trace`: only the trace editor's pipeline over the workbench's 200 MB trace (editorTraceBench.ts).
  if (flag === '--editor-trace') return benchEditorTrace((line) => process.stdout.write(line + '\n'));
  if (flag === TABLE_BREAKDOWN_FLAG && path) return tableImportBreakdown(path);
  // `bench.js --table-import`: only reading a 100k-observation Langfuse Parquet export.
  if (flag === '--table-import') return benchTableImport((line) => process.stdout.write(line + '\n'));
  // `bench.js --process`: only the whole-process figures (quick to re-run).
  if (flag === '--process') return benchProcess((line) => process.stdout.write(line + '\n'));
  // `bench.js --code-cache`: only what checking the code cache costs a run.
  if (flag === '--code-cache') return benchCodeCache((line) => process.stdout.write(line + '\n'));
  // `bench.js --beside-vllm`: only `analyze` alternated with vLLM's own parser (needs a vLLM clone; vllmSideBySide.ts).
  if (flag === '--beside-vllm') return benchBesideVllmOnly((line) => process.stdout.write(line + '\n'));
  // `bench.js --corpus`: only analyze DIR and FILE over the generated corpus (TOOLSCOPE_BENCH_CORPUS_MB).
  if (flag === '--corpus') return benchCorpusOnly((line) => process.stdout.write(line + '\n'));
  // `bench.js --parquet`: only what `analyze --parquet` costs over the generated corpus's files.
  if (flag === '--parquet') return benchParquetOnly((line) => process.stdout.write(line + '\n'));
  // `bench.js --guided`: only the what-if figures (per 1k tokens at 4k, 36k, 100k) and the grammar engine's.
  if (flag === '--guided') {
    const log = (line: string) => process.stdout.write(line + '\n');
    await benchGuided(log);
    await benchGuidedWorker(log);
    return benchRecordOverhead(log);
  }
  // `bench.js --record-overhead`: only the per-record what-if parts.
  if (flag === '--record-overhead') return benchRecordOverhead((line) => process.stdout.write(line + '\n'));
  // `bench.js --guided-formats`: only the per-format guided figures.
  if (flag === '--guided-formats') return benchGuidedFormats((line) => process.stdout.write(line + '\n'));
  return main();
}

entry().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
