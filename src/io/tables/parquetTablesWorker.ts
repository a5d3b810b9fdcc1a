/**
 * The thread that encodes the finding tables (parquetTables.ts starts it; bundled on its own as
 * dist/tablesWorker.js, a small bundle that starts fast): it takes the analysing threads' rows as they come and
 * writes each table's row groups as they fill, so encoding and compressing run beside the analysis instead of after
 * it. Errors (a full disk) are kept and reported when the tables are closed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { FINDING_COLUMNS, RECORD_COLUMNS } from '../../core/tables/findingTables.ts';
import { ParquetTableFile } from './parquetTableFile.ts';
import type { TablesWorkerData, ToTablesWorker, FromTablesWorker } from './parquetTablesProtocol.ts';

function serve(port: NonNullable<typeof parentPort>, data: TablesWorkerData): void {
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
      failure !== null ? { error: failure } : { records: records?.rows ?? 0, findings: findings?.rows ?? 0, encodeMs };
    port.postMessage(answer);
  });
}

if (parentPort) serve(parentPort, workerData as TablesWorkerData);
