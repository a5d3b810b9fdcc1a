/**
 * The recording proxy's trace file: every record one whole line, written by a single queue so concurrent exchanges
 * never interleave or tear lines (records that finish together go out in one write). With a size limit the file
 * rotates: `traces.jsonl`, then `traces.2.jsonl`, `traces.3.jsonl`, … — a record is never split across files, and a
 * file that already exists is appended to, never rewritten (a torn last line from a crash is ended first).
 */
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { endTornLine } from '../../host/eval/appendLines.ts';

export interface RotatingTraceWriterOptions {
  path: string;
  /** Rotate before a file would grow past this many bytes (a record bigger than that gets a file of its own). */
  maxBytes?: number;
  /** Called when records start going to another file. */
  onRotate?: (path: string) => void;
}

/** `traces.jsonl`, n = 3 → `traces.3.jsonl`. */
export function rotatedPath(path: string, n: number): string {
  if (n <= 1) return path;
  const name = basename(path);
  const m = /^(.*)\.jsonl$/u.exec(name);
  return join(dirname(path), m ? `${m[1]}.${n}.jsonl` : `${name}.${n}`);
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

interface Pending {
  line: Buffer;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class RotatingTraceWriter {
  private handle: FileHandle | null = null;
  private size = 0;
  private index = 1;
  private queue: Pending[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;
  private count = 0;

  private constructor(private readonly options: RotatingTraceWriterOptions) {}

  static async open(options: RotatingTraceWriterOptions): Promise<RotatingTraceWriter> {
    if (options.maxBytes !== undefined && !(options.maxBytes > 0)) throw new Error('maxBytes must be positive');
    const writer = new RotatingTraceWriter(options);
    await mkdir(dirname(options.path), { recursive: true });
    await writer.openFrom(1);
    return writer;
  }

  /** The file records go to now. */
  get currentPath(): string {
    return rotatedPath(this.options.path, this.index);
  }

  /** Records written since the writer opened. */
  get recordsWritten(): number {
    return this.count;
  }

  /** Appends one record as one line; resolves once it is written. */
  append(record: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the trace writer is closed'));
    const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.kick();
    });
  }

  /** Starts the drain loop unless it runs; lines queued while it was finishing start it again. */
  private kick(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.queue.length) this.kick();
    });
  }

  /** Waits for queued records, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.draining) await this.draining;
    await this.handle?.close();
    this.handle = null;
  }

  /** The first file from `n` on that has room (or does not exist yet), opened for appending. */
  private async openFrom(n: number): Promise<void> {
    const max = this.options.maxBytes;
    let index = n;
    for (;;) {
      const path = rotatedPath(this.options.path, index);
      const size = await sizeOf(path);
      if (size === null || max === undefined || size < max) break;
      index++;
    }
    await this.handle?.close();
    const path = rotatedPath(this.options.path, index);
    await endTornLine(path);
    this.handle = await open(path, 'a');
    this.size = (await this.handle.stat()).size;
    const rotated = this.index !== index;
    this.index = index;
    if (rotated) this.options.onRotate?.(path);
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const max = this.options.maxBytes;
      // As many queued lines as fit in the current file, in one write.
      const batch: Pending[] = [];
      let bytes = 0;
      for (const p of this.queue) {
        if (max !== undefined && (this.size > 0 || batch.length > 0) && this.size + bytes + p.line.length > max) break;
        batch.push(p);
        bytes += p.line.length;
      }
      if (!batch.length) {
        try {
          await this.openFrom(this.index + 1);
        } catch (err) {
          for (const p of this.queue.splice(0)) p.reject(err);
        }
        continue;
      }
      this.queue.splice(0, batch.length);
      try {
        const handle = this.handle;
        if (!handle) throw new Error('the trace file is not open');
        const data =
          batch.length === 1
            ? (batch[0] as Pending).line
            : Buffer.concat(
                batch.map((p) => p.line),
                bytes,
              );
        let off = 0;
        while (off < data.length) off += (await handle.write(data, off, data.length - off)).bytesWritten;
        this.size += bytes;
        this.count += batch.length;
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
  }
}
