/** A writable stream that keeps what a command printed, for tests of CLI commands that take an output stream. */
import { Writable } from 'node:stream';

export function sink(): Writable & { text: () => string } {
  let out = '';
  const w = new Writable({
    write(chunk: Buffer, _e, done) {
      out += chunk.toString();
      done();
    },
  }) as Writable & { text: () => string };
  w.text = () => out;
  return w;
}
