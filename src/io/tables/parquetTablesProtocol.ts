/** What the main thread and the table-encoding thread (parquetTablesWorker.ts) send each other. */
import type { TableChunk } from '../../core/tables/findingTables.ts';

export interface TablesWorkerData {
  /** The folder; the main thread has made it and made both files (empty) there. */
  dir: string;
  toolVersion: string;
  /** Bytes of values per row group (parquetTableFile.ts), for tests that want several groups from a few rows. */
  groupBytes?: number;
}

/** Rows to add, in order; then `close`, once. */
export type ToTablesWorker = { chunk: TableChunk } | { close: true };

/** The answer to `close`: the rows written and the thread's time spent encoding and writing, or what went wrong. */
export type FromTablesWorker =
  | {
      records: number;
      findings: number;
      encodeMs: number;
      /** The thread's CPU time from its start to its answer (null where the platform does not say), ms. */
      cpuMs: number | null;
    }
  | { error: string };
