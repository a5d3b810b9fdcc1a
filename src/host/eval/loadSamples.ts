/** K2-Vendor-Verifier samples: the chat requests of a file, keyed by K2VV's data_index (the 1-based line). */
import { readTraceItems } from '../../io/trace/traceIndex.ts';
import type { ChatRequest, LineError } from '../../core/trace/record.ts';
import { deepseekLogicalRequest } from './deepseekResults.ts';

/** One chat request of a samples file, by its index there (K2VV's `data_index`). */
export interface EvalSample {
  dataIndex: number;
  request: ChatRequest;
}

export async function loadSamples(path: string, limit?: number): Promise<{ samples: EvalSample[]; errors: LineError[] }> {
  const samples: EvalSample[] = [];
  const errors: LineError[] = [];
  // A DeepSeek verifier's retries repeat their logical request: its initial attempt is the sample.
  const logical = new Set<string>();
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'error') {
      errors.push(item.error);
      continue;
    }
    const request = item.loaded.record.request;
    if (!request || !Array.isArray(request.messages)) continue;
    const key = deepseekLogicalRequest(item.loaded);
    if (key !== null) {
      if (logical.has(key)) continue;
      logical.add(key);
    }
    samples.push({ dataIndex: item.loaded.line, request });
    if (limit !== undefined && samples.length >= limit) break;
  }
  return { samples, errors };
}
