/** A writable that keeps what was written, as text. */
import { Writable } from 'node:stream';

export function collect(): { stream: Writable; text: () => string } {
  const parts: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      parts.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => parts.join('') };
}
