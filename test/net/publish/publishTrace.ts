/**
 * A trace for the publish tests, built from samples/kimi-k2-raw-completions.jsonl: the sample's records with the
 * ids a fleet's exporter would have put on them. `full` (the leak: content-leak and dropped-call) has a trace id,
 * span id and Langfuse observation id; `spanOnly` (empty content deltas) only a span id; `clean` (no findings) all
 * of them; `bare` (the leak again) none, and its response's own id taken out, so no target can place it.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const IDS = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  observationId: 'obs-7f3a',
  spanOnly: 'b7ad6b7169203331',
};

const lines = readFileSync(new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url), 'utf8').split('\n');
const sample = (id: string) => {
  const line = lines.find((l) => l.includes(`"id":"${id}"`));
  if (!line) throw new Error(`no sample ${id}`);
  return JSON.parse(line) as { id: string; meta: Record<string, unknown>; response: unknown };
};

/** Writes the trace into `dir`; its path. */
export async function writePublishTrace(dir: string): Promise<string> {
  const full = sample('leak-marker-in-content');
  full.id = 'full';
  full.meta = { ...full.meta, trace_id: IDS.traceId, span_id: IDS.spanId, observation_id: IDS.observationId };
  const spanOnly = sample('empty-content-deltas');
  spanOnly.id = 'span-only';
  spanOnly.meta = { ...spanOnly.meta, span_id: IDS.spanOnly };
  const clean = sample('clean-single-call');
  clean.meta = { ...clean.meta, trace_id: IDS.traceId, span_id: 'a3ce929d0e0e4736', observation_id: 'obs-clean' };
  const bare = sample('leak-marker-in-content');
  bare.id = 'bare';
  for (const part of Array.isArray(bare.response) ? bare.response : [bare.response]) delete (part as { id?: string }).id;
  const file = join(dir, 'fleet.jsonl');
  await writeFile(file, [full, spanOnly, clean, bare].map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}
