/**
 * Decodes a compressed response body for the record while the compressed bytes go to the client untouched (hosted
 * APIs gzip their JSON). Incremental, so a compressed event stream is recorded event by event.
 */
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** True when bytes with this `content-encoding` are not the body itself. */
export function isEncoded(encoding: string | string[] | undefined): boolean {
  const value = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).trim().toLowerCase();
  return value !== '' && value !== 'identity';
}

export class BodyDecoder {
  private readonly stream: Transform | null;
  private failure: string | null = null;
  private readonly finished: Promise<void>;

  /** `onData` receives the decoded bytes in order. */
  constructor(encoding: string | string[] | undefined, onData: (chunk: Buffer) => void) {
    const value = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).trim().toLowerCase();
    const stream =
      value === 'gzip' || value === 'x-gzip'
        ? createGunzip()
        : value === 'deflate'
          ? createInflate()
          : value === 'br'
            ? createBrotliDecompress()
            : null;
    this.stream = stream;
    if (!stream) {
      this.failure = `content-encoding "${value}" is not decoded; the body is not recorded`;
      this.finished = Promise.resolve();
      return;
    }
    stream.on('data', onData);
    this.finished = new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('error', (err) => {
        this.failure = `the ${value} body could not be decoded: ${err.message}`;
        resolve();
      });
    });
  }

  write(chunk: Buffer): void {
    if (this.stream && !this.failure) this.stream.write(chunk);
  }

  /** Ends the input; resolves once every decoded byte was handed over. */
  async end(): Promise<void> {
    if (this.stream && !this.failure) this.stream.end();
    else this.stream?.destroy();
    await this.finished;
  }

  /** Why the body could not be decoded, or null. */
  get problem(): string | null {
    return this.failure;
  }
}
