/**
 * A byte-offset index over a trace file (`.jsonl`, SSE dumps, or both mixed). Opening scans bytes only — lines
 * are found with `indexOf` in a reused chunk buffer (LF, CRLF and a lone CR each end a line, as old Mac exports and
 * some Windows tools write them) and classified from their first bytes — so a file of
 * hundreds of MB opens without parsing a single record; each entry is decoded and imported when read.
 * An entry is one record's lines — a JSON line, or a line that starts a record followed by its continuation lines
 * (indented, or opening with `}` `]` `)`: pretty-printed JSON, multi-line Python printouts) — or one block of
 * consecutive SSE lines (blank lines inside a block do not end it). See `lineKind.ts` and importers/importGroup.ts.
 * `refresh()` follows a file being appended to: it continues from where the last scan stopped.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { LineError } from '../../core/trace/record.ts';
import { ENTRY_INCOMPLETE, ENTRY_OLLAMA, ENTRY_PYCHUNK, ENTRY_SSE, EntryTable } from '../../core/trace/entryTable.ts';
import { incompleteLineError, itemsInLineOrder, type ReadResult, type TraceItem } from '../../core/trace/importers/importResult.ts';
import { readLineText } from '../../core/trace/importers/importLineText.ts';
import { importLineGroup, type TextLine } from '../../core/trace/importers/importGroup.ts';
import { importSseBlock } from '../../core/trace/importers/sseImporter.ts';
import { importOllamaLines } from '../../core/trace/importers/ollamaImporter.ts';
import { importPrintedChunks } from '../../core/trace/importers/printedChunks.ts';
import { guardedEntry } from '../../core/trace/importers/entryGuard.ts';
import {
  LINE_HEAD_LENGTH,
  SHORT_HEAD,
  classifyHead,
  classifyText,
  isLeadingSpace,
  isOllamaStart,
  type LineKind,
} from '../../core/trace/lineKind.ts';
import { readInspectLogFile } from './inspectLogReader.ts';
import { readTableItems, tableFileKind } from './tableTrace.ts';
import { decodeUtf8Line } from '../../core/trace/utf8.ts';

export interface TraceIndexOptions {
  /** Bytes read per `fs.read` while scanning (default 2 MB). */
  chunkSize?: number;
  /**
   * Index only the first `limit` bytes for now; `indexTo` goes on. Until the whole file is indexed, the last two
   * entries may still change (the last may grow; a line cut at the limit may turn out to continue the one before).
   */
  limit?: number;
  /**
   * Reads that follow one another are served from one `fs.read` of BATCH_BYTES (a report reads every entry in order,
   * twice, and one async read each kept it waiting a quarter of its time). Off in the editor: there the 200 MB
   * trace's list took 229 s to fill with it instead of 32 s (the workbench e2e, cause not found).
   */
  readAhead?: boolean;
}

export interface TraceEntry {
  index: number;
  /** 1-based line of the entry's first line. */
  line: number;
  /** 1-based last line (an SSE block or a multi-line record spans several). */
  lastLine: number;
  /** Byte range in the file: `start` inclusive, `end` exclusive, without the final newline (or CR). */
  start: number;
  end: number;
  sse: boolean;
  /** A run of Ollama NDJSON chunk lines. */
  ollama: boolean;
  /** A run of printed `ChatCompletionChunk(…)` lines. */
  printedChunks: boolean;
  /** The last line had no newline yet when indexed; `refresh()` reads it again. */
  incomplete: boolean;
}

export interface RefreshResult {
  /** Index of the first entry that is new or whose content changed; equals `count` when nothing changed. */
  firstChanged: number;
  count: number;
  /** The file shrank or was replaced: everything was indexed again. */
  reset: boolean;
}

const DEFAULT_CHUNK = 2 * 1024 * 1024;
/** Entries read together with one `fs.read` (one read per entry is slow). */
export const BATCH_BYTES = 1024 * 1024;
const BOM = [0xef, 0xbb, 0xbf];

/** What to undo before scanning on: the incomplete last line was indexed provisionally. */
type Tail = { kind: 'pushed' } | { kind: 'extended'; entry: number; end: number; lastLine: number };

export class TraceIndex {
  readonly path: string;
  private handle: FileHandle;
  private ino: number;
  private dev: number;
  private readonly chunkSize: number;
  private readonly table = new EntryTable();
  /** Start of the first line not yet complete (everything before it is indexed for good). */
  private scanned = 0;
  private nextLine = 1;
  /** The last scan ended right after a CR: an LF that comes next belongs to that line break (CRLF across reads). */
  private afterCR = false;
  /** The entry the next SSE line (if it is an SSE block) or continuation line (if not) would extend, or -1. */
  private openEntry = -1;
  private bomChecked = false;
  private indexedSize = 0;
  private tail: Tail | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** With `readAhead`: the batch the last read in sequence came from, and the entry that read was. */
  private readAhead: { from: number; batch: EntryBatch } | null = null;
  private lastRead = -2;
  private readonly readsAhead: boolean;

  private constructor(path: string, handle: FileHandle, ino: number, dev: number, chunkSize: number, readsAhead: boolean) {
    this.path = path;
    this.handle = handle;
    this.ino = ino;
    this.dev = dev;
    this.chunkSize = chunkSize;
    this.readsAhead = readsAhead;
  }

  static async open(path: string, options: TraceIndexOptions = {}): Promise<TraceIndex> {
    const handle = await open(path, 'r');
    try {
      const st = await handle.stat();
      const index = new TraceIndex(
        path,
        handle,
        st.ino,
        st.dev,
        Math.max(1, options.chunkSize ?? DEFAULT_CHUNK),
        options.readAhead === true,
      );
      await index.scan(Math.min(st.size, options.limit ?? Infinity));
      return index;
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Number of entries (JSON lines and SSE blocks). */
  get count(): number {
    return this.table.count;
  }

  /** Bytes of the file covered by the index. */
  get size(): number {
    return this.indexedSize;
  }

  entry(i: number): TraceEntry {
    this.check(i);
    const t = this.table;
    const flags = t.flags[i] ?? 0;
    return {
      index: i,
      line: t.lines[i] ?? 0,
      lastLine: t.lastLines[i] ?? 0,
      start: t.starts[i] ?? 0,
      end: t.ends[i] ?? 0,
      sse: (flags & ENTRY_SSE) !== 0,
      ollama: (flags & ENTRY_OLLAMA) !== 0,
      printedChunks: (flags & ENTRY_PYCHUNK) !== 0,
      incomplete: (flags & ENTRY_INCOMPLETE) !== 0,
    };
  }

  /** 1-based first line of entry `i`. */
  line(i: number): number {
    this.check(i);
    return this.table.lines[i] ?? 0;
  }

  byteRange(i: number): { start: number; end: number } {
    this.check(i);
    return { start: this.table.starts[i] ?? 0, end: this.table.ends[i] ?? 0 };
  }

  /** Decodes and imports entry `i`: one record or error for a JSON line, any number for an SSE block. */
  read(i: number): Promise<ReadResult> {
    return this.serial(() => this.readNow(i));
  }

  /** Indexes on up to byte `limit` (or the end of the file) after an `open` with a `limit`. */
  indexTo(limit: number): Promise<void> {
    return this.serial(async () => {
      this.undoTail();
      await this.scan(limit);
    });
  }

  /** Indexes what was appended since the last scan (and re-reads a last line that was incomplete). */
  refresh(): Promise<RefreshResult> {
    return this.serial(() => this.refreshNow());
  }

  /** Every record and error in file order (entries read in batches: one `fs.read` per entry is slow). */
  async *items(): AsyncGenerator<TraceItem> {
    for (let i = 0; i < this.count;) {
      const batch = await this.serial(() => this.readBatchNow(i));
      if (batch.entries.length === 0) break;
      yield* batchItems(batch);
      i += batch.entries.length;
    }
  }

  [Symbol.asyncIterator](): AsyncGenerator<TraceItem> {
    return this.items();
  }

  close(): Promise<void> {
    return this.serial(() => this.handle.close());
  }

  private check(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.table.count) {
      throw new RangeError(`entry ${i} out of range (0..${this.table.count - 1})`);
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private readFully(bytes: Uint8Array, position: number): Promise<number> {
    return readFully(this.handle, bytes, position);
  }

  private async readNow(i: number): Promise<ReadResult> {
    const sequential = i === this.lastRead + 1;
    this.lastRead = i;
    // Snapshot the entry before awaiting: a refresh may change the table meanwhile. A jump reads just the entry.
    const current = this.entry(i);
    if (!this.readsAhead || !sequential) return readEntry(this.handle, current);
    // Indexing on leaves the bytes read ahead as they were, but may extend the last entries (an incomplete last
    // line, an open SSE block): an entry no longer as it was read is read again.
    const ahead = this.readAhead;
    const held = ahead?.batch.entries[i - ahead.from];
    if (!ahead || i < ahead.from || held?.start !== current.start || held.end !== current.end) {
      this.readAhead = { from: i, batch: await this.readBatchNow(i) };
    }
    const { from, batch } = this.readAhead as { from: number; batch: EntryBatch };
    const entry = batch.entries[i - from] as TraceEntry;
    const base = (batch.entries[0] as TraceEntry).start;
    if (entry.end - base > batch.got) return shrunk(entry);
    return importEntryBytes(batch.bytes.subarray(entry.start - base, entry.end - base), entry);
  }

  /** Entries `from`… read with one `fs.read` of up to BATCH_BYTES (or the one entry, if larger). */
  private async readBatchNow(from: number): Promise<EntryBatch> {
    if (from >= this.count) return { entries: [], bytes: new Uint8Array(0), got: 0 };
    const entries = [this.entry(from)];
    const base = entries[0]?.start ?? 0;
    for (let j = from + 1; j < this.count; j++) {
      const next = this.entry(j);
      if (next.end - base > BATCH_BYTES) break;
      entries.push(next);
    }
    const last = entries[entries.length - 1] ?? this.entry(from);
    const bytes = Buffer.allocUnsafe(last.end - base);
    const got = await this.readFully(bytes, base);
    return { entries, bytes, got };
  }

  private async refreshNow(): Promise<RefreshResult> {
    const st = await stat(this.path);
    if (st.ino !== this.ino || st.dev !== this.dev) {
      // Replaced (rotated, rewritten by an editor): read the new file from the start.
      const handle = await open(this.path, 'r');
      await this.handle.close();
      this.handle = handle;
      const fresh = await handle.stat();
      this.ino = fresh.ino;
      this.dev = fresh.dev;
      return this.rescan(fresh.size);
    }
    if (st.size < this.indexedSize) return this.rescan(st.size);
    if (st.size === this.indexedSize) return { firstChanged: this.count, count: this.count, reset: false };

    let firstChanged = this.count;
    if (this.tail !== null) {
      firstChanged = this.tail.kind === 'pushed' ? this.count - 1 : this.tail.entry;
      this.undoTail();
    }
    const block = this.openEntry;
    const blockEnd = block >= 0 ? this.table.ends[block] : 0;
    await this.scan(st.size);
    if (block >= 0 && this.table.ends[block] !== blockEnd) firstChanged = Math.min(firstChanged, block);
    return { firstChanged: Math.min(firstChanged, this.count), count: this.count, reset: false };
  }

  private async rescan(size: number): Promise<RefreshResult> {
    // The file shrank or was replaced: the same offsets may now hold other bytes.
    this.readAhead = null;
    this.lastRead = -2;
    this.table.clear();
    this.scanned = 0;
    this.nextLine = 1;
    this.afterCR = false;
    this.openEntry = -1;
    this.bomChecked = false;
    this.indexedSize = 0;
    this.tail = null;
    await this.scan(size);
    return { firstChanged: 0, count: this.count, reset: true };
  }

  private undoTail(): void {
    const tail = this.tail;
    if (tail === null) return;
    if (tail.kind === 'pushed') this.table.count--;
    else {
      this.table.ends[tail.entry] = tail.end;
      this.table.lastLines[tail.entry] = tail.lastLine;
      this.table.flags[tail.entry] = (this.table.flags[tail.entry] ?? 0) & ~ENTRY_INCOMPLETE;
    }
    this.tail = null;
  }

  /** Skips a UTF-8 BOM at the very start; false while the file holds only a prefix of one. */
  private async checkBom(size: number): Promise<boolean> {
    if (this.bomChecked) return true;
    if (size === 0) return false;
    const head = new Uint8Array(Math.min(3, size));
    const got = await this.readFully(head, 0);
    const bomPrefix = got > 0 && head.subarray(0, got).every((b, k) => b === BOM[k]);
    if (bomPrefix && got < 3) return false;
    this.bomChecked = true;
    if (bomPrefix) this.scanned = 3;
    return true;
  }

  /** Indexes complete lines from `scanned` up to `size`, then the incomplete rest provisionally. */
  private async scan(size: number): Promise<void> {
    if (!(await this.checkBom(size))) {
      this.indexedSize = size;
      return;
    }
    let pos = this.scanned;
    let line = this.nextLine;
    let lineStart = pos;
    // The first bytes of the current line after its leading whitespace (a line may span chunks).
    const head = new Uint8Array(LINE_HEAD_LENGTH);
    let headLen = 0;
    let indented = false;
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(this.chunkSize, size - pos)));
    while (pos < size) {
      const { bytesRead: n } = await this.handle.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (n === 0) break; // the file shrank while we read; the next refresh will notice
      const chunk = n === buf.length ? buf : buf.subarray(0, n);
      let i = 0;
      // The LF of a CRLF whose CR ended the last read.
      if (this.afterCR && chunk[0] === 10) {
        i = 1;
        lineStart = pos + 1;
      }
      this.afterCR = false;
      // Found once per chunk and again only when passed, so a file without CRs is not searched per line.
      let cr = chunk.indexOf(13, i);
      let lf = chunk.indexOf(10, i);
      while (i < n) {
        // Six bytes decide every kind but an Ollama chunk's; only a line starting `{"mode` is read further.
        while (i < n && (headLen < SHORT_HEAD || (headLen < LINE_HEAD_LENGTH && isOllamaStart(head)))) {
          const b = chunk[i] ?? 10;
          if (b === 10 || b === 13) break;
          i++;
          if (headLen === 0 && isLeadingSpace(b)) {
            indented = true;
            continue;
          }
          head[headLen++] = b;
        }
        if (cr >= 0 && cr < i) cr = chunk.indexOf(13, i);
        if (lf >= 0 && lf < i) lf = chunk.indexOf(10, i);
        const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
        if (end < 0) break;
        this.addLine(classifyHead(head, headLen, indented), lineStart, pos + end, line);
        line++;
        // CRLF is one break; a CR at the end of the read may be the first half of one.
        let next = end + 1;
        if (end === cr) {
          if (next < n && chunk[next] === 10) next++;
          else if (next === n) this.afterCR = true;
        }
        lineStart = pos + next;
        headLen = 0;
        indented = false;
        i = next;
      }
      pos += n;
    }
    this.scanned = lineStart;
    this.nextLine = line;
    this.indexedSize = pos;
    if (headLen > 0 && pos > lineStart) this.addTail(classifyHead(head, headLen, indented), lineStart, pos, line);
  }

  /** The open entry a line of this kind would extend, or -1. */
  private extendable(kind: LineKind): number {
    const open = this.openEntry;
    if (open < 0) return -1;
    return entryFlagsFor(kind) === ((this.table.flags[open] ?? 0) & (ENTRY_SSE | ENTRY_OLLAMA | ENTRY_PYCHUNK)) && kind !== 'json'
      ? open
      : -1;
  }

  private addLine(kind: LineKind, start: number, end: number, line: number): void {
    if (kind === 'blank') return; // inside an SSE block too: blank lines separate events
    const open = this.extendable(kind);
    if (open >= 0) {
      this.table.ends[open] = end;
      this.table.lastLines[open] = line;
    } else {
      this.openEntry = this.table.push(start, end, line, line, entryFlagsFor(kind));
    }
  }

  /** The last line, still without its newline: indexed so it can be shown, undone before the next scan. */
  private addTail(kind: LineKind, start: number, end: number, line: number): void {
    const open = this.extendable(kind);
    if (open >= 0) {
      const entry = open;
      const t = this.table;
      this.tail = { kind: 'extended', entry, end: t.ends[entry] ?? 0, lastLine: t.lastLines[entry] ?? 0 };
      t.ends[entry] = end;
      t.lastLines[entry] = line;
      t.flags[entry] = (t.flags[entry] ?? 0) | ENTRY_INCOMPLETE;
      return;
    }
    this.table.push(start, end, line, line, entryFlagsFor(kind) | ENTRY_INCOMPLETE);
    this.tail = { kind: 'pushed' };
  }
}

/** Consecutive entries and their bytes (from the first entry's start), read with one `fs.read`; `got` bytes came. */
export interface EntryBatch {
  entries: TraceEntry[];
  bytes: Uint8Array;
  got: number;
}

/**
 * A batch's records and errors in file order, each entry imported only as its items are taken: imported all at
 * once, a batch's parsed records (a megabyte of them) are all held while the first is analysed and outlive the
 * young generation (measured on the 1 GB bench corpus: 2.8 s of garbage collection per analysing thread, 1.2 s
 * imported one at a time).
 */
export function* batchItems(batch: EntryBatch): Generator<TraceItem> {
  const base = batch.entries[0]?.start ?? 0;
  for (const e of batch.entries) {
    yield* itemsInLineOrder(e.end - base > batch.got ? shrunk(e) : importEntryBytes(batch.bytes.subarray(e.start - base, e.end - base), e));
  }
}

/** Reads `bytes.length` bytes at `position`; fewer only at the end of the file. */
export async function readFully(handle: FileHandle, bytes: Uint8Array, position: number): Promise<number> {
  let got = 0;
  while (got < bytes.length) {
    const { bytesRead } = await handle.read(bytes, got, bytes.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

/** Decodes and imports one entry read from `handle` (`shrunk` when the file no longer holds all of it). */
export async function readEntry(handle: FileHandle, entry: TraceEntry): Promise<ReadResult> {
  const bytes = Buffer.allocUnsafe(entry.end - entry.start);
  if ((await readFully(handle, bytes, entry.start)) < bytes.length) return shrunk(entry);
  return importEntryBytes(bytes, entry);
}

/** The entry type a line of this kind starts (or extends: SSE lines SSE blocks, Ollama lines Ollama runs, continuation lines records). */
function entryFlagsFor(kind: LineKind): number {
  return kind === 'sse' ? ENTRY_SSE : kind === 'ollama' ? ENTRY_OLLAMA : kind === 'pychunk' ? ENTRY_PYCHUNK : 0;
}

/** What an entry gives when the file no longer holds all of its bytes. */
export function shrunk(entry: TraceEntry): ReadResult {
  const message = `line ${entry.line}: could not be read: the file is shorter than when it was indexed (refresh it)`;
  return { records: [], errors: [{ line: entry.line, message }] };
}

/** Decodes and imports one entry's bytes: a JSON line, or a multi-line record or SSE block split back into lines. */
export function importEntryBytes(bytes: Uint8Array, entry: TraceEntry): ReadResult {
  return guardedEntry(entry.line, () => importEntryUnguarded(bytes, entry));
}

function importEntryUnguarded(bytes: Uint8Array, entry: TraceEntry): ReadResult {
  const { line, lastLine, start, sse, ollama, printedChunks, incomplete } = entry;
  if (!sse && !ollama && !printedChunks && line === lastLine) {
    const decoded = decodeUtf8Line(bytes, line, start);
    if ('error' in decoded) {
      return { records: [], errors: [incomplete ? incompleteLineError(line) : { line, message: decoded.error }] };
    }
    return readLineText(decoded.text, line, incomplete);
  }
  const errors: LineError[] = [];
  const lines = entryLines(bytes, entry, errors);
  const incompleteLine = incomplete ? lastLine : undefined;
  // An SSE block folds its lines as they are decoded (a stream of a million events is never held as lines).
  const result = sse
    ? importSseBlock(lines, incompleteLine)
    : ollama
      ? importOllamaLines([...lines], incompleteLine)
      : printedChunks
        ? importPrintedChunks([...lines], incompleteLine)
        : importLineGroup([...lines], incompleteLine);
  if (errors.length > 0) {
    result.errors.push(...errors);
    result.errors.sort((a, b) => a.line - b.line);
  }
  return result;
}

/** An entry's non-blank lines, decoded one at a time; a line that is not UTF-8 goes to `errors` instead. */
function* entryLines(bytes: Uint8Array, entry: TraceEntry, errors: LineError[]): Generator<TextLine> {
  const { line, lastLine, start, incomplete } = entry;
  for (let s = 0, ln = line; ; ln++) {
    // LF, CRLF or a lone CR, as the index counted them.
    let e = s;
    while (e < bytes.length && bytes[e] !== 10 && bytes[e] !== 13) e++;
    const decoded = decodeUtf8Line(bytes.subarray(s, e), ln, start + s);
    if ('error' in decoded) errors.push(incomplete && ln === lastLine ? incompleteLineError(ln) : { line: ln, message: decoded.error });
    else if (classifyText(decoded.text) !== 'blank') yield { line: ln, text: decoded.text };
    if (e >= bytes.length) break;
    s = bytes[e] === 13 && bytes[e + 1] === 10 ? e + 2 : e + 1;
  }
}

/** Every record and error of a file in file order (the CLI's streaming pass); the file is closed at the end. */
export async function* readTraceItems(path: string, options?: TraceIndexOptions): AsyncGenerator<TraceItem> {
  const table = tableFileKind(path);
  if (table) return yield* readTableItems(path, table);
  const inspect = await readInspectLogFile(path);
  if (inspect) return yield* itemsInLineOrder(inspect);
  const index = await TraceIndex.open(path, options);
  try {
    yield* index.items();
  } finally {
    await index.close();
  }
}
