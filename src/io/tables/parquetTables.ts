/**
 * `analyze --parquet DIR`: the finding tables (core/tables/findingTables.ts) as DIR/records.parquet and
 * DIR/findings.parquet (parquetTableFile.ts), encoded on a thread of their own (parquetTablesWorker.ts). The
 * analysing thread only hands its rows over as they come; the tables' row groups are encoded while the records are
 * analysed, and closing waits for the last of them. Measured on the bench corpus (npm run bench -- --parquet), this
 * is what keeps `--parquet` cheap beside the analysis: encoding on the main thread at the end took ~0.6 s of CPU
 * (most of it in code that runs once, cold) after the analysis had finished.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workerThread.ts';
import { transferList, type TableChunk } from '../../core/tables/findingTables.ts';
import type { FromTablesWorker, TablesWorkerData, ToTablesWorker } from './parquetTablesProtocol.ts';

/** What `close` reports: rows written to each file, and where the time went. */
export interface TablesWritten {
  dir: string;
  records: number;
  findings: number;
  /** The main thread's time on the tables: handing rows over, and waiting at the end for the last row groups, ms. */
  mainMs: number;
  /** Of that, the wait at the end, ms. */
  waitMs: number;
  /** The encoding thread's time encoding, compressing and writing, ms. */
  encodeMs: number;
  /** The encoding thread's CPU time, start-up and receiving rows included (null where the platform does not say), ms. */
  encodeCpuMs: number | null;
}

/**
 * Bundled: dist/tablesWorker.js beside this bundle (scripts/build.mjs); from source (tsx): the worker's module with
 * tsx's hooks (CommonJS for our files, ESM for hyparquet-writer).
 */
function spawnWorker(data: TablesWorkerData): Worker {
  return startWorker(join(dirname(__filename), __filename.endsWith('.ts') ? 'parquetTablesWorker.ts' : 'tablesWorker.js'), {
    workerData: data,
  });
}

/** records.parquet and findings.parquet in one folder (created if missing; files of the same name are replaced). */
export class ParquetTables {
  private mainMs = 0;
  /** The worker's answer to `close` (or how it failed): listened for from the start, so no failure goes unseen. */
  private readonly answer: Promise<FromTablesWorker>;

  private constructor(
    private readonly dir: string,
    private readonly worker: Worker,
  ) {
    this.answer = new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the thread writing the Parquet files ended early (exit code ${code})`)));
    });
    // Failures are reported by close; until then a failure is held, not thrown.
    this.answer.catch(() => undefined);
    // The thread keeps the process alive only while close waits for it.
    worker.unref();
  }

  /** `groupBytes`: bytes of values per row group (tests ask for small groups). */
  static async create(dir: string, toolVersion: string, groupBytes?: number): Promise<ParquetTables> {
    await mkdir(dir, { recursive: true });
    // Both files are made here, before any work: a folder that cannot take them fails the run now, not at its end.
    for (const name of ['records.parquet', 'findings.parquet']) await writeFile(join(dir, name), '');
    return new ParquetTables(dir, spawnWorker({ dir, toolVersion, groupBytes }));
  }

  append(chunk: TableChunk): void {
    const t = performance.now();
    // Its typed arrays move to the encoding thread: the caller hands the chunk over for good.
    this.worker.postMessage({ chunk } satisfies ToTablesWorker, transferList(chunk));
    this.mainMs += performance.now() - t;
  }

  async close(): Promise<TablesWritten> {
    const t = performance.now();
    this.worker.ref();
    this.worker.postMessage({ close: true } satisfies ToTablesWorker);
    try {
      const answer = await this.answer;
      if ('error' in answer) throw new Error(answer.error);
      const waitMs = performance.now() - t;
      this.mainMs += waitMs;
      return {
        dir: this.dir,
        records: answer.records,
        findings: answer.findings,
        mainMs: this.mainMs,
        waitMs,
        encodeMs: answer.encodeMs,
        encodeCpuMs: answer.cpuMs,
      };
    } catch (err) {
      throw new Error(`--parquet: writing ${this.dir} failed: ${(err as Error).message}`, { cause: err });
    } finally {
      await this.worker.terminate();
    }
  }
}
