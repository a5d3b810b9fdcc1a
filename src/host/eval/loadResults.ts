/**
 * Reads a K2VV result file through the trace importers; lines that are not K2VV results are reported. The DeepSeek
 * provider verifier's attempts file is read as its logical requests' outcomes (deepseekResults.ts).
 */
import { readTraceItems } from '../../io/trace/traceIndex.ts';
import type { LineError, LoadedRecord } from '../../core/trace/record.ts';
import { resultFromRecord, type K2vvResult } from './k2vvMetrics.ts';
import { deepseekResults } from './deepseekResults.ts';

export async function loadK2vvResults(path: string): Promise<{ results: K2vvResult[]; errors: LineError[] }> {
  const results: K2vvResult[] = [];
  const errors: LineError[] = [];
  const others: LoadedRecord[] = [];
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'error') {
      errors.push(item.error);
      continue;
    }
    const r = resultFromRecord(item.loaded.record);
    if (r) results.push(r);
    else others.push(item.loaded);
  }
  if (results.length === 0 && others.length > 0 && others.every((r) => r.source === 'deepseek-verifier'))
    return { results: deepseekResults(others), errors };
  for (const o of others)
    errors.push({ line: o.line, message: `line ${o.line} is a ${o.source} record, not a K2-Vendor-Verifier result line` });
  errors.sort((a, b) => a.line - b.line);
  return { results, errors };
}
