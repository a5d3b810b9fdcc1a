/**
 * The workbench e2e's big trace (test/workbench/e2e.test.ts) and the editor bench's (editorTraceBench.ts), written
 * once: the Kimi K2 sample's real lines again and again, each with a new id, up to `target` bytes (~200 MB, ~50,000
 * records). The sample has 29 records, so a what-if's whole input repeats every 29 records.
 *
 * `varied`: each round also changes the string argument values the model wrote (in the raw completion and in the
 * recorded response), so no two records' what-ifs have the same input, as in a real trace (the tools stay the same,
 * as an agent sends them every turn). Records with recorded tokens keep their completion (their tokens spell it),
 * so 9 of the 29 still repeat their what-if's input.
 */
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

export const BIG_TRACE_SAMPLE = 'kimi-k2-raw-completions.jsonl';

/** `"key": "value"` pairs of JSON arguments (escaped or not), the value given a round's suffix. */
const STRING_ARGUMENT = /("[A-Za-z_]+"\s*:\s*")([^"\\]*)"/g;

function varyStrings(value: unknown, round: number): unknown {
  if (typeof value === 'string') return value.replace(STRING_ARGUMENT, (_, head: string, v: string) => `${head}${v} r${round}"`);
  if (Array.isArray(value)) return value.map((v) => varyStrings(v, round));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, varyStrings(v, round)]));
  return value;
}

function variedLine(line: string, round: number): string {
  const record = JSON.parse(line) as { id: string; completion?: { tokens?: unknown }; response?: unknown };
  record.id = `${record.id}-${round}`;
  if (record.completion && !record.completion.tokens) record.completion = varyStrings(record.completion, round) as typeof record.completion;
  if (record.response && !record.completion?.tokens) record.response = varyStrings(record.response, round);
  return JSON.stringify(record);
}

export async function writeBigTrace(
  root: string,
  path: string,
  target = 200 * 1024 * 1024,
  varied = false,
): Promise<{ bytes: number; records: number }> {
  const lines = readFileSync(join(root, 'samples', BIG_TRACE_SAMPLE), 'utf8')
    .split('\n')
    .filter(Boolean);
  const handle = await open(path, 'w');
  let bytes = 0;
  let records = 0;
  try {
    for (let round = 0; bytes < target; round++) {
      const batch =
        lines
          .map((l) => (varied ? variedLine(l, round) : l.replace(/"id":"([^"]*)"/, (_, id: string) => `"id":"${id}-${round}"`)))
          .join('\n') + '\n';
      await handle.write(batch);
      bytes += Buffer.byteLength(batch);
      records += lines.length;
    }
  } finally {
    await handle.close();
  }
  return { bytes, records };
}
