/**
 * Reads the metadata of a GGUF file (what Ollama and llama.cpp users have: a model in one file) and stops before the
 * tensors: a 40 GB model costs the few megabytes of its header. Layout (ggml docs/gguf.md): "GGUF", version,
 * tensor count, key/value count, then typed key/value pairs, little-endian. The file is untrusted: every length is
 * bounded and a short or malformed header is an error naming the offset.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from './tokenizerFile.ts';
import type { GgufValue } from '../../core/tokens/ggufTokenizer.ts';

const CHUNK = 1 << 20;
// Bounds that no real header reaches (a vocabulary has some 10^5 tokens) and that keep a hostile file small.
const MAX_STRING = 1 << 24;
const MAX_ARRAY = 1 << 24;
const MAX_KEYS = 1 << 16;

/** Sequential reads over a file descriptor, a chunk at a time. */
class Reader {
  private buffer = Buffer.alloc(0);
  private at = 0;
  private fileAt = 0;

  constructor(
    private readonly fd: number,
    private readonly label: string,
  ) {}

  get offset(): number {
    return this.fileAt - (this.buffer.length - this.at);
  }

  private need(n: number): void {
    if (this.buffer.length - this.at >= n) return;
    const rest = this.buffer.subarray(this.at);
    const chunk = Buffer.alloc(Math.max(CHUNK, n - rest.length));
    const read = readSync(this.fd, chunk, 0, chunk.length, this.fileAt);
    this.fileAt += read;
    this.buffer = Buffer.concat([rest, chunk.subarray(0, read)]);
    this.at = 0;
    if (this.buffer.length < n) throw new Error(`${this.label}: the GGUF header ends early (at byte ${this.offset + this.buffer.length})`);
  }

  bytes(n: number): Buffer {
    this.need(n);
    const out = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  u32(): number {
    return this.bytes(4).readUInt32LE(0);
  }

  u64(): bigint {
    return this.bytes(8).readBigUInt64LE(0);
  }

  /** A u64 count, bounded. */
  count(max: number, what: string): number {
    const at = this.offset;
    const n = this.u64();
    if (n > BigInt(max)) throw new Error(`${this.label}: ${what} of ${n} at byte ${at} is past any real GGUF header`);
    return Number(n);
  }

  string(): string {
    return this.bytes(this.count(MAX_STRING, 'a string length')).toString('utf8');
  }
}

export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufValue>;
}

/** The metadata of the GGUF file at `path` (only keys `keep` accepts hold values; others are read past). */
export function readGgufHeader(path: string, keep: (key: string) => boolean = () => true): GgufHeader {
  const { fd } = openRegularFile(path);
  try {
    const r = new Reader(fd, path);
    const magic = r.bytes(4).toString('latin1');
    if (magic !== 'GGUF') throw new Error(`${path} is not a GGUF file (it starts with ${JSON.stringify(magic)}, not "GGUF")`);
    const version = r.u32();
    if (version < 2 || version > 3) throw new Error(`${path}: GGUF version ${version} is not supported (2 and 3 are)`);
    r.u64(); // tensor count: the tensors are not read
    const keys = r.count(MAX_KEYS, 'a key count');
    const metadata = new Map<string, GgufValue>();
    for (let i = 0; i < keys; i++) {
      const key = r.string();
      const type = r.u32();
      const value = readValue(r, type, path, keep(key));
      if (value !== undefined) metadata.set(key, value);
    }
    return { version, metadata };
  } finally {
    closeSync(fd);
  }
}

/** Whether a file starts like a GGUF file (Ollama's blobs have no extension). */
export function isGgufFile(path: string): boolean {
  const { fd } = openRegularFile(path);
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString('latin1') === 'GGUF';
  } finally {
    closeSync(fd);
  }
}

const FIXED: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

function readValue(r: Reader, type: number, label: string, keep: boolean): GgufValue | undefined {
  if (type === 8) {
    const s = r.string();
    return keep ? s : undefined;
  }
  if (type === 9) {
    const itemType = r.u32();
    const n = r.count(MAX_ARRAY, 'an array length');
    if (!keep && itemType in FIXED) {
      r.bytes(n * (FIXED[itemType] as number));
      return undefined;
    }
    const items: GgufValue[] = [];
    for (let i = 0; i < n; i++) {
      const v = readValue(r, itemType, label, keep);
      if (keep) items.push(v as GgufValue);
    }
    return keep ? items : undefined;
  }
  const size = FIXED[type];
  if (size === undefined) throw new Error(`${label}: unknown GGUF value type ${type} at byte ${r.offset - 4}`);
  const b = r.bytes(size);
  if (!keep) return undefined;
  switch (type) {
    case 0:
      return b.readUInt8(0);
    case 1:
      return b.readInt8(0);
    case 2:
      return b.readUInt16LE(0);
    case 3:
      return b.readInt16LE(0);
    case 4:
      return b.readUInt32LE(0);
    case 5:
      return b.readInt32LE(0);
    case 6:
      return b.readFloatLE(0);
    case 7:
      return b.readUInt8(0) !== 0;
    case 10:
      return b.readBigUInt64LE(0);
    case 11:
      return b.readBigInt64LE(0);
    default:
      return b.readDoubleLE(0);
  }
}
