/**
 * Toolscope's folder in the user's own cache (`$XDG_CACHE_HOME/toolscope` or `~/.cache/toolscope`, created 0700):
 * compiled code (src/io/cache/codeCache.ts) and derived grammars (derivedGrammarFiles.ts) are kept there, read and written
 * through cacheFiles.ts. `TOOLSCOPE_CODE_CACHE=0` turns both off.
 *
 * What is read back from the folder is run or compiled, and what is pruned from it is deleted: so each of our folders
 * (`toolscope`, and a folder in it) is used only when `lstat` shows a real directory, owned by the user, mode 0700.
 * A symlink in their place (to a folder holding anything else) or a folder other users can reach means no cache at
 * all, never a file read or deleted there. The cache folder above ours (`~/.cache`) may be a symlink: many set ups
 * keep it elsewhere.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** POSIX permissions and owners; Windows has neither in this sense (its folders under the profile are the user's). */
const POSIX = process.platform !== 'win32';

/** The folder (or a folder in it), made if missing; null when off, or when it cannot be made or is not ours alone. */
export function userCacheFolder(...sub: string[]): string | null {
  if (process.env.TOOLSCOPE_CODE_CACHE === '0') return null;
  try {
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    mkdirSync(base, { recursive: true, mode: 0o700 });
    let dir = base;
    for (const name of ['toolscope', ...sub]) {
      dir = join(dir, name);
      if (!ownFolder(dir)) return null;
    }
    return dir;
  } catch {
    return null;
  }
}

/** Makes `dir` if missing (0700), then whether it is a directory of the user's alone (not a link to one). */
function ownFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  const info = lstatSync(dir);
  if (!info.isDirectory()) return false;
  if (!POSIX) return true;
  return info.uid === process.getuid?.() && (info.mode & 0o777) === 0o700;
}
