/**
 * The files of one cache folder (userCacheFolder.ts), read, written and pruned so that a cache can only cost time,
 * never a run or a file:
 * - Only names of the folder's own pattern are read or removed, and only regular files (`lstat`): a symlink, a FIFO, a
 *   device or a folder that happens to be there is neither followed, read, waited on nor deleted.
 * - A file is opened `O_NOFOLLOW | O_NONBLOCK` and read only when `fstat` shows a regular file of the user's: a FIFO
 *   put in place of a cache file is a miss, not a hang.
 * - Every file is sealed: a one-line header says what it was written for and holds the sha256 and length of the bytes
 *   after it. A file that is not whole, not ours or not for this key reads as a miss, and the caller writes it again.
 *   V8 release builds do not check a code cache's bytes (a flipped byte in one crashed every run), so the seal is
 *   checked before anything else sees them.
 * - A file is written to a temporary name of its own (`<name>.<pid>.<thread>.tmp`, created exclusively, 0600) and
 *   renamed into place; a write that fails (a full disk) removes its temporary file. One left by a process that died
 *   mid-write is pruned (isLeftOver) by the next write.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { sha256Hex } from './sha256.ts';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** Not on Windows (0 there: its cache folder is under the user's profile, and it has no FIFOs to hang on). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
const POSIX = process.platform !== 'win32';

/** A file larger than this is no cache of ours (the CLI's code cache is ~1–2 MB). */
const MAX_BYTES = 256 << 20;

/** The header's first word and version; the header is one line of ASCII ending in `\n`, at most MAX_HEADER bytes. */
const MAGIC = 'toolscope-cache 1';
const MAX_HEADER = 256;

/** A temporary file this old was left by a process that ended mid-write (a live one renames it within milliseconds). */
const LEFT_OVER_MS = 60_000;

const TEMP_SUFFIX = /\.(\d+)\.\d+\.tmp$/;

/** A file of the folder: a cache file, or (`temp`) the temporary file of one being written. */
export interface CacheEntry {
  name: string;
  /** The cache file's name: `name`, or the one the temporary file was to become. */
  file: string;
  temp: boolean;
  mtimeMs: number;
}

export interface CacheFiles {
  readonly folder: string;
  /** The bytes sealed in `name` for `seal`; undefined when missing, not a regular file of ours, or not whole. */
  read(name: string, seal: string): Buffer | undefined;
  /** Writes `payload` sealed for `seal` under `name` (temporary name, then rename); false when it could not. */
  write(name: string, seal: string, payload: Uint8Array): boolean;
  /** The regular files of the folder whose names are the folder's own (and their temporary files). */
  entries(): CacheEntry[];
  /** Removes a file of the folder's own pattern (a temporary one too); a missing one or any error is ignored. */
  remove(name: string): void;
}

/**
 * The cache files in `folder` named by `pattern` (anchored, `^…$`). `folder` must come from userCacheFolder, which
 * checked that it is the user's own directory. `seal`s are written as given: no spaces or line ends.
 */
export function cacheFiles(folder: string, pattern: RegExp): CacheFiles {
  const ours = (name: string) => pattern.test(name);
  const kind = (name: string): 'file' | 'temp' | null =>
    ours(name) ? 'file' : TEMP_SUFFIX.test(name) && ours(name.replace(TEMP_SUFFIX, '')) ? 'temp' : null;
  return {
    folder,
    read(name, seal) {
      if (!ours(name)) return undefined;
      const bytes = readRegularFile(join(folder, name));
      return bytes && unseal(bytes, seal);
    },
    write(name, seal, payload) {
      if (!ours(name) || /\s/.test(seal)) return false;
      return writeReplacing(folder, name, [sealHeader(seal, payload), payload]);
    },
    entries() {
      const out: CacheEntry[] = [];
      for (const name of readdirSync(folder)) {
        const k = kind(name);
        if (k === null) continue;
        try {
          const info = lstatSync(join(folder, name));
          if (info.isFile()) out.push({ name, file: name.replace(TEMP_SUFFIX, ''), temp: k === 'temp', mtimeMs: info.mtimeMs });
        } catch {
          // Gone meanwhile (another process pruned it).
        }
      }
      return out;
    },
    remove(name) {
      if (kind(name) === null) return;
      try {
        // unlink removes a name, never what a link points to.
        unlinkSync(join(folder, name));
      } catch {
        // Already gone, or not ours to remove: a cache that is not pruned only takes room.
      }
    },
  };
}

/**
 * A temporary file left by a write that will not finish: its process is gone (a worker thread ended mid-write when its
 * process exited), or it is older than any write takes. Another live thread's file is being written: it stays.
 */
export function isLeftOver(entry: CacheEntry, now = Date.now()): boolean {
  if (!entry.temp) return false;
  if (now - entry.mtimeMs > LEFT_OVER_MS) return true;
  const pid = Number(TEMP_SUFFIX.exec(entry.name)?.[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The whole of the regular file at `path`, if it is one and the user's; never follows a link or waits on a FIFO. */
function readRegularFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_BYTES || (POSIX && info.uid !== process.getuid?.())) return undefined;
    const bytes = Buffer.allocUnsafe(info.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) return undefined;
      at += n;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function sealHeader(seal: string, payload: Uint8Array): Buffer {
  return Buffer.from(`${MAGIC} ${seal} ${sha256Hex(payload)} ${payload.length}\n`, 'latin1');
}

/** The bytes after the header, when the header is for `seal` and their length and sha256 are the header's. */
function unseal(bytes: Buffer, seal: string): Buffer | undefined {
  const end = bytes.subarray(0, MAX_HEADER).indexOf(0x0a);
  if (end < 0) return undefined;
  const [magic, version, forSeal, sha, length, ...rest] = bytes.toString('latin1', 0, end).split(' ');
  const payload = bytes.subarray(end + 1);
  const whole =
    `${magic} ${version}` === MAGIC &&
    forSeal === seal &&
    rest.length === 0 &&
    length === String(payload.length) &&
    sha === sha256Hex(payload);
  return whole ? payload : undefined;
}

/** Writes `parts` to a temporary file beside `name` and renames it into place; the temporary file never stays. */
function writeReplacing(folder: string, name: string, parts: Uint8Array[]): boolean {
  const temp = join(folder, `${name}.${process.pid}.${threadId}.tmp`);
  let fd: number | undefined;
  let created = false;
  try {
    fd = createExclusive(temp);
    created = true;
    for (const part of parts) for (let at = 0; at < part.length;) at += writeSync(fd, part, at, part.length - at);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, join(folder, name));
    return true;
  } catch {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // Closed or not, the file goes below.
      }
    }
    if (created) {
      try {
        unlinkSync(temp);
      } catch {
        // Renamed before the error, or removed meanwhile.
      }
    }
    return false;
  }
}

/**
 * A new file at `path`, 0600. A file already there by this name is the temporary file of a process that had this
 * pid and thread and died mid-write: it is removed (unlink removes a link, not its target) and made anew, once.
 */
function createExclusive(path: string): number {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
  try {
    return openSync(path, flags, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    unlinkSync(path);
    return openSync(path, flags, 0o600);
  }
}
