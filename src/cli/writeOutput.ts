/**
 * Writes a file named on the command line (the HTML report, JUnit, SARIF), creating its folder; a failure is a
 * usage error (`cannot write PATH: reason`, exit status 2). A regular file is written to a temporary file beside
 * it and renamed over it once complete, so a failed write (a full disk) leaves the old file as it was and nothing
 * half-written; a special file (`/dev/stdout`, a FIFO) is written in place, as it must be.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from './inputError.ts';

/** What is gathered before a write: pieces are joined into writes of about this many characters. */
const WRITE_CHARS = 1 << 20;

export async function writeOutput(path: string, text: string | Iterable<string>): Promise<number> {
  let temp: string | null = null;
  try {
    const dir = dirname(resolve(path));
    await mkdir(dir, { recursive: true });
    const existing = await stat(path).catch(() => null);
    if (existing !== null && !existing.isFile()) return await writePieces(path, typeof text === 'string' ? [text] : text);
    temp = join(dir, `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    const bytes = await writePieces(temp, typeof text === 'string' ? [text] : text, 'wx');
    if (existing !== null) await chmod(temp, existing.mode & 0o7777);
    await rename(temp, path);
    temp = null;
    return bytes;
  } catch (err) {
    throw new InputError(`cannot write ${path}: ${(err as Error).message}`);
  } finally {
    if (temp !== null) await unlink(temp).catch(() => undefined);
  }
}

/** Writes the pieces to `path` in writes of about WRITE_CHARS; returns the bytes written. */
async function writePieces(path: string, pieces: Iterable<string>, flags = 'w'): Promise<number> {
  const file = await open(path, flags);
  let bytes = 0;
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      const chunk = Buffer.from(pending.join(''), 'utf8');
      pending = [];
      size = 0;
      bytes += chunk.length;
      for (let at = 0; at < chunk.length;) at += (await file.write(chunk, at)).bytesWritten;
    };
    for (const piece of pieces) {
      pending.push(piece);
      size += piece.length;
      if (size >= WRITE_CHARS) await flush();
    }
    await flush();
  } finally {
    await file.close();
  }
  return bytes;
}
