/**
 * Progress of a long `analyze` on a terminal: one line on stderr, rewritten in place (files, MB, records, MB/s).
 * Shown only when stderr is a terminal (never in a pipe, a file or CI logs), for several files or one big file on
 * several threads, once the run has taken more than a second; redrawn at most five times a second and erased at the
 * end, so stdout is untouched.
 */
import { fileSize } from './fileSize.ts';

const FIRST_DRAW_MS = 1000;
const REDRAW_MS = 200;

export class AnalyzeProgress {
  private files = 0;
  private bytes = 0;
  private records = 0;
  private lastDraw = -Infinity;
  private shown = false;
  private readonly started: number;

  constructor(
    private readonly totalFiles: number,
    private readonly totalBytes: number,
    private readonly out: { write(text: string): unknown },
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /**
   * A progress line for this run, or null when there is no terminal to show it on, or only one file on one thread
   * (a file analysed on several threads, in ranges of its records, shows its progress).
   */
  static async forRun(
    files: readonly string[],
    errors: { isTTY?: boolean; write(text: string): unknown },
    threads = 1,
  ): Promise<AnalyzeProgress | null> {
    if (!errors.isTTY || (files.length < 2 && threads < 2)) return null;
    const sizes = await Promise.all(files.map(fileSize));
    return new AnalyzeProgress(
      files.length,
      sizes.reduce((a, b) => a + b, 0),
      errors,
    );
  }

  /** One more record analysed (on this thread). */
  record(): void {
    this.records++;
    this.draw();
  }

  /** A file is done: its size, and its records when they were counted elsewhere (a worker thread). */
  fileDone(bytes: number, records: number): void {
    this.files++;
    this.bytes += bytes;
    this.records += records;
    this.draw();
  }

  /** A range of a file's records is done (on a worker thread): its share of the file's bytes, and its records. */
  rangeDone(bytes: number, records: number): void {
    this.bytes += bytes;
    this.records += records;
    this.draw();
  }

  /** Erases the line. */
  end(): void {
    if (this.shown) this.out.write('\r\u001b[K');
    this.shown = false;
  }

  private draw(): void {
    const t = this.now();
    if (t - this.started < FIRST_DRAW_MS || t - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = t;
    this.shown = true;
    const mb = (n: number) => (n / 1e6).toFixed(n < 1e7 ? 1 : 0);
    const rate = this.bytes / 1e6 / ((t - this.started) / 1000);
    this.out.write(
      `\r\u001b[Ktoolscope: ${this.files}/${this.totalFiles} files, ${mb(this.bytes)}/${mb(this.totalBytes)} MB, ${this.records.toLocaleString('en-US')} records, ${rate.toFixed(1)} MB/s`,
    );
  }
}
