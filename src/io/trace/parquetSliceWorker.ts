/**
 * The thread that decodes a Parquet file's slices (parquetRows.ts: parquetSlices) while the reading thread turns the
 * slice before into records (parquetSliceThread.ts). Text is left as its UTF-8 bytes and sent in one buffer per
 * column (parquetSliceProtocol.ts); one slice is sent, then the thread waits to be asked for the next, so at most one
 * decoded slice waits for the reader. A failure ends the thread: the reader then decodes from that slice itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parquetSlices } from './parquetRows.ts';
import { packSlice, type FromSliceWorker, type SliceWorkerData, type ToSliceWorker } from './parquetSliceProtocol.ts';

const port = parentPort;
const { path, columns, sliceBytes } = workerData as SliceWorkerData;

/** Resolves when the reader asks for the next slice. */
function asked(): Promise<void> {
  return new Promise((resolve) => port?.once('message', (_: ToSliceWorker) => resolve()));
}

async function run(): Promise<void> {
  // hyparquet's text left as bytes (the reader decodes it).
  const parsers = { stringFromBytes: (bytes: Uint8Array) => bytes as unknown as string };
  for await (const decoded of parquetSlices(path, () => columns ?? undefined, sliceBytes, 0, parsers)) {
    const { slice, transfer } = packSlice(decoded);
    const next = asked();
    port?.postMessage({ slice } satisfies FromSliceWorker, transfer);
    await next;
  }
  port?.postMessage({ done: true } satisfies FromSliceWorker);
}

// The reader decodes from the slice it waits for and meets the failure itself, with its own message.
void run().catch(() => process.exit(1));
