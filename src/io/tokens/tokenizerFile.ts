/**
 * Tokenizer files are opened only as regular files of a bounded size: a path the user named may be a FIFO (whose
 * open waits for a writer), `/dev/zero` (endless) or a huge file, and reading any of those ran until killed. The
 * open does not wait (O_NONBLOCK), and what it opened is checked before a byte is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** The most a tokenizer.json, tiktoken.model or tokenizer_config.json may hold (the largest real ones: ~30 MB). */
export const MAX_TOKENIZER_TEXT_BYTES = 256 * 1024 * 1024;

/** Opens `path` for reading if it is a regular file; throws naming the path otherwise. The caller closes it. */
export function openRegularFile(path: string): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path} is not a regular file: a tokenizer is read only from one`);
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The text of a regular file of at most `max` bytes. */
export function readTokenizerText(path: string, max: number = MAX_TOKENIZER_TEXT_BYTES): string {
  const { fd, size } = openRegularFile(path);
  try {
    if (size > max) throw new Error(`${path} holds ${size} bytes, more than the ${max} a tokenizer file may hold`);
    const bytes = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, bytes, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
