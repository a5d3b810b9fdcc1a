/**
 * The sha256 of a bundle's bytes: what names the caches derived from it (its V8 code cache, the grammars its engine
 * derives). A path, size and time would name a rebuilt bundle of the same size and time like the old one, whose
 * cache then ran the old code. With SHA-NI, which current x86 and ARM cores have, node:crypto hashes ~1.6 GB/s: the
 * CLI's 2.3 MB bundle in ~1.5 ms (measured in `npm run bench`, "code cache").
 *
 * Hashed once per thread and file: the grammar worker's loader (src/cli/guidedWorkerLoader.ts) hashes the engine's
 * bundle as it loads it, and the engine asks again for its grammars' build. The answer is kept in a global, shared by
 * the copies of this module in the two bundles.
 */
import { sha256Hex } from './sha256.ts';
import { readFileSync } from 'node:fs';

const hashes = ((globalThis as unknown as Record<symbol, Map<string, string> | undefined>)[Symbol.for('toolscope.bundleHashes')] ??=
  new Map<string, string>());

/** The hex sha256 of the bundle at `file`; `bytes`, when given, are its bytes as loaded (not read again). */
export function bundleHash(file: string, bytes?: Uint8Array): string {
  let hex = hashes.get(file);
  if (hex === undefined) {
    hex = sha256Hex(bytes ?? readFileSync(file));
    hashes.set(file, hex);
  }
  return hex;
}
