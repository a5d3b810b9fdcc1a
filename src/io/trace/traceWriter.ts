/**
 * Appends records to a trace file, one whole line each. Toolscope never rewrites a user's trace: new
 * records (replays) go to a sibling file, and writing into the file being replayed is refused.
 */
import { access, appendFile, constants, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { TraceRecord } from '../../core/trace/record.ts';

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

/**
 * Why records cannot be appended to `path`, or null: checked before any request is sent, so a run's results are
 * never lost for want of somewhere to write them. Nothing is created.
 */
export async function appendProblem(path: string, protect: string[] = []): Promise<string | null> {
  const target = await canonical(path);
  for (const p of protect) {
    if ((await canonical(p)) === target) return `refusing to write into ${p}: replays go to a new file, never the original trace`;
  }
  try {
    const s = await stat(path);
    if (!s.isFile()) return `cannot write to ${path}: it is not a file`;
    await access(path, constants.W_OK);
    return null;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') return `cannot write to ${path}: ${err instanceof Error ? err.message : String(err)}`;
  }
  try {
    await access(dirname(resolve(path)), constants.W_OK);
    return null;
  } catch {
    return `cannot write to ${path}: the folder ${dirname(resolve(path))} does not exist or is not writable`;
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
