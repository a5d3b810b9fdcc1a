/**
 * The thread that encodes the finding tables (parquetTables.ts starts it; bundled on its own as
 * dist/tablesWorker.js, a small bundle that starts fast): it takes the analysing threads' rows as they come and
 * writes each table's row groups as they fill, so encoding and compressing run beside the analysis instead of after
 * it. Errors (a full disk) are kept and reported when the tables are closed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { FINDING_COLUMNS, RECORD_COLUMNS } from '../../core/tables/findingTables.ts';
import { ParquetTableFile } from './parquetTableFile.ts';
import type { TablesWorkerData, ToTablesWorker, FromTablesWorker } from './parquetTablesProtocol.ts';

/**
 * This thread's CPU time so far, ms (Linux: the scheduler's run time of the thread), or null elsewhere. What the
 * bench compares: on a loaded machine the thread's wall time says more about the load than about the encoding.
 */
function threadCpuMs(): number | null {
  try {
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

const cpuSince = (start: number | null): number | null => {
  const now = threadCpuMs();
  return start === null || now === null ? null : now - start;
};

function serve(port: NonNullable<typeof parentPort>, data: TablesWorkerData): void {
  const cpuAtStart = threadCpuMs();
  let encodeMs = 0;
  let failure: string | null = null;
  let records: ParquetTableFile | null = null;
  let findings: ParquetTableFile | null = null;
  const timed = (work: () => void) => {
    if (failure !== null) return;
    const t = performance.now();
    try {
      work();
    } catch (err) {
      failure = (err as Error).message;
    }
    encodeMs += performance.now() - t;
  };
  timed(() => {
    records = new ParquetTableFile(join(data.dir, 'records.parquet'), RECORD_COLUMNS, data.toolVersion, data.groupBytes);
    findings = new ParquetTableFile(join(data.dir, 'findings.parquet'), FINDING_COLUMNS, data.toolVersion, data.groupBytes);
  });
  port.on('message', (message: ToTablesWorker) => {
    if ('chunk' in message) {
      timed(() => {
        records?.append(message.chunk.records);
        findings?.append(message.chunk.findings);
      });
      return;
    }
    timed(() => {
      records?.finish();
      findings?.finish();
    });
    const answer: FromTablesWorker =
      failure !== null
        ? { error: failure }
        : { records: records?.rows ?? 0, findings: findings?.rows ?? 0, encodeMs, cpuMs: cpuSince(cpuAtStart) };
    port.postMessage(answer);
  });
}

if (parentPort) serve(parentPort, workerData as TablesWorkerData);
