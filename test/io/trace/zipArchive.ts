/**
 * A minimal zip writer for hostile `.eval` archives: each entry's compression method, declared size and bytes are
 * given as they are, so a test can write what fflate's writer never would (bzip2 entries, corrupt data, bombs).
 */
import { crc32 } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate, 12 bzip2, … */
  method: number;
  /** The entry's bytes as stored (compressed for method 8). */
  data: Uint8Array;
  /** The uncompressed size and CRC the headers declare. */
  size: number;
  crc: number;
}

export function storedEntry(name: string, text: string): ZipEntry {
  const data = new TextEncoder().encode(text);
  return { name, method: 0, data, size: data.length, crc: crc32(data) };
}

export function zipArchive(entries: readonly ZipEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(e.method, 10);
    dir.writeUInt32LE(e.crc >>> 0, 16);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, e.data);
    central.push(dir, name);
    offset += local.length + name.length + e.data.length;
  }
  const dirSize = central.reduce((n, p) => n + p.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}
