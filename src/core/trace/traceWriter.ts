/**
 * Appends records to a trace file, one whole line each. Toolscope never rewrites a user's trace: new
 * records (replays) go to a sibling file, and writing into the file being replayed is refused.
 */
import { appendFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { TraceRecord } from './record.ts';

/** `trace.jsonl` → `trace.replays.jsonl` beside it. */
export function siblingReplaysPath(tracePath: string): string {
  const name = basename(tracePath).replace(/\.jsonl$/u, '');
  return join(dirname(tracePath), `${name}.replays.jsonl`);
}

async function canonical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

export async function appendRecords(path: string, records: TraceRecord[], protect: string[] = []): Promise<void> {
  const target = await canonical(path);
  for (const p of protect) {
    if ((await canonical(p)) === target) throw new Error(`refusing to write into ${p}: replays go to a new file, never the original trace`);
  }
  // One write per batch: lines stay whole even when another process appends too.
  await appendFile(path, records.map((r) => JSON.stringify(r) + '\n').join(''), 'utf8');
}
