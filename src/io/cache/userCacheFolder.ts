/**
 * Toolscope's folder in the user's own cache (`$XDG_CACHE_HOME/toolscope` or `~/.cache/toolscope`, created 0700):
 * compiled code (src/cli/codeCache.ts) and derived grammars (derivedGrammarFiles.ts) are kept there. Never a folder
 * other users can write: what is read back from it is run or compiled. `TOOLSCOPE_CODE_CACHE=0` turns both off.
 */
import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder (or a folder in it), made if missing; null when off, or when it cannot be made or is not ours. */
export function userCacheFolder(...sub: string[]): string | null {
  if (process.env.TOOLSCOPE_CODE_CACHE === '0') return null;
  try {
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    const dir = join(base, 'toolscope', ...sub);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Someone else's folder could hold code planted for us: only our own is used.
    if (typeof process.getuid === 'function' && statSync(dir).uid !== process.getuid()) return null;
    return dir;
  } catch {
    return null;
  }
}
