/**
 * The workbench e2e's big trace (test/workbench/e2e.test.ts) and the editor bench's (editorTraceBench.ts), written
 * once: the Kimi K2 sample's real lines again and again, each with a new id, up to `target` bytes (~200 MB, ~50,000
 * records). The sample has 29 records, so a what-if's whole input repeats every 29 records.
 */
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

export const BIG_TRACE_SAMPLE = 'kimi-k2-raw-completions.jsonl';

export async function writeBigTrace(root: string, path: string, target = 200 * 1024 * 1024): Promise<{ bytes: number; records: number }> {
  const lines = readFileSync(join(root, 'samples', BIG_TRACE_SAMPLE), 'utf8')
    .split('\n')
    .filter(Boolean);
  const handle = await open(path, 'w');
  let bytes = 0;
  let records = 0;
  try {
    for (let round = 0; bytes < target; round++) {
      const batch = lines.map((l) => l.replace(/"id":"([^"]*)"/, (_, id: string) => `"id":"${id}-${round}"`)).join('\n') + '\n';
      await handle.write(batch);
      bytes += Buffer.byteLength(batch);
      records += lines.length;
    }
  } finally {
    await handle.close();
  }
  return { bytes, records };
}
