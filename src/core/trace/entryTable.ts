/**
 * The index's entries as parallel typed arrays that double when full: a few dozen bytes an entry, no object
 * per line, so a file of millions of lines stays cheap to hold.
 */

/** The entry is a block of SSE lines (else one JSON line). */
export const ENTRY_SSE = 1;
/** The entry's last line had no newline when it was indexed. */
export const ENTRY_INCOMPLETE = 2;
/** The entry is a run of Ollama NDJSON chunk lines. */
export const ENTRY_OLLAMA = 4;
/** The entry is a run of printed `ChatCompletionChunk(…)` lines. */
export const ENTRY_PYCHUNK = 8;

export class EntryTable {
  count = 0;
  // Float64 byte offsets: exact up to 2^53, so files over 4 GB are fine.
  starts = new Float64Array(1024);
  ends = new Float64Array(1024);
  lines = new Uint32Array(1024);
  lastLines = new Uint32Array(1024);
  flags = new Uint8Array(1024);

  push(start: number, end: number, line: number, lastLine: number, flags: number): number {
    if (this.count === this.starts.length) this.grow();
    const i = this.count++;
    this.starts[i] = start;
    this.ends[i] = end;
    this.lines[i] = line;
    this.lastLines[i] = lastLine;
    this.flags[i] = flags;
    return i;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const grown = <T extends Float64Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.starts = grown(this.starts, (n) => new Float64Array(n));
    this.ends = grown(this.ends, (n) => new Float64Array(n));
    this.lines = grown(this.lines, (n) => new Uint32Array(n));
    this.lastLines = grown(this.lastLines, (n) => new Uint32Array(n));
    this.flags = grown(this.flags, (n) => new Uint8Array(n));
  }
}
