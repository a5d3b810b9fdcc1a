/** A file's size in bytes for progress and scheduling: 0 for standard input and for a file that cannot be read. */
import { stat } from 'node:fs/promises';
import { STDIN_NAME } from './stdinTrace.ts';

export async function fileSize(file: string): Promise<number> {
  if (file === STDIN_NAME) return 0;
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}
