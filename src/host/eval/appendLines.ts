/** Appends JSON values as whole lines in one write, so concurrent finishers never interleave within a line. */
import { appendFile, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';

let queue: Promise<void> = Promise.resolve();

export function appendRecordsRaw(path: string, values: unknown[]): Promise<void> {
  const text = values.map((v) => JSON.stringify(v) + '\n').join('');
  // Serialise writes within this process; each is a single append of whole lines.
  const write = queue
    .catch(() => undefined)
    .then(async () => {
      await mkdir(dirname(path), { recursive: true });
      await appendFile(path, text, 'utf8');
    });
  queue = write;
  return write;
}

/** A crash can leave a torn last line: end it, so the next record starts on a line of its own. */
export async function endTornLine(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r+');
  } catch {
    return false;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return false;
    await handle.write('\n', size);
    return true;
  } finally {
    await handle.close();
  }
}
