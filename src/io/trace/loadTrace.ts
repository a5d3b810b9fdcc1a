/**
 * Loads a whole trace file at once (small files, tests, the extension's first view). Still indexes bytes
 * first, then imports one entry at a time.
 */
import type { LoadResult } from '../../core/trace/importText.ts';
import { readTraceItems, type TraceIndexOptions } from './traceIndex.ts';

export async function loadAll(path: string, options?: TraceIndexOptions): Promise<LoadResult> {
  const out: LoadResult = { file: path, records: [], errors: [] };
  for await (const item of readTraceItems(path, options)) {
    if (item.kind === 'record') out.records.push(item.loaded);
    else out.errors.push(item.error);
  }
  return out;
}
