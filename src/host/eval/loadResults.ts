/** Reads a K2VV result file through the trace importers; lines that are not K2VV results are reported. */
import { readTraceItems } from '../../io/trace/traceIndex.ts';
import type { LineError } from '../../core/trace/record.ts';
import { resultFromRecord, type K2vvResult } from './k2vvMetrics.ts';

export async function loadK2vvResults(path: string): Promise<{ results: K2vvResult[]; errors: LineError[] }> {
  const results: K2vvResult[] = [];
  const errors: LineError[] = [];
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'error') {
      errors.push(item.error);
      continue;
    }
    const r = resultFromRecord(item.loaded.record);
    if (r) results.push(r);
    else
      errors.push({
        line: item.loaded.line,
        message: `line ${item.loaded.line} is a ${item.loaded.source} record, not a K2-Vendor-Verifier result line`,
      });
  }
  return { results, errors };
}
