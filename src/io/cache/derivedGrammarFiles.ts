/**
 * Derived grammars (src/core/guided/derivedGrammarStore.ts) kept as files in the user's cache folder, one per tag,
 * named by the build that derived them: another build (other lowering code, another web-xgrammar) may derive
 * another grammar, so its files are not read, and are removed when this build writes. At most MAX_FILES are kept,
 * the oldest go first. A file that does not read back whole (cut short, edited) is a miss, never an error.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { DerivedGrammar, DerivedGrammarStore } from '../../core/guided/derivedGrammarStore.ts';
import { userCacheFolder } from './userCacheFolder.ts';

/** Tool sets kept: an agent has a few; a corpus of many agents' traces should not grow the folder without end. */
const MAX_FILES = 256;

const ROUTES = new Set<DerivedGrammar['route']>(['direct', 'patched-ebnf']);

/** The build of the bundle at `file`, as a short key: its path, size and time. */
export function bundleBuild(file: string): string {
  const info = statSync(file);
  return createHash('sha256').update(`${file}\0${info.size}\0${info.mtimeMs}`).digest('hex').slice(0, 16);
}

/** The store of the build `build`; null when there is no cache folder (or caching is off). */
export function derivedGrammarFiles(build: string): DerivedGrammarStore | null {
  const folder = userCacheFolder('grammars');
  if (folder === null) return null;
  const path = (key: string) => join(folder, `${build}-${key}.json`);
  return {
    read(key) {
      try {
        const kept = JSON.parse(readFileSync(path(key), 'utf8')) as Partial<DerivedGrammar & { key: string }>;
        const whole =
          kept.key === key &&
          typeof kept.ebnf === 'string' &&
          typeof kept.root === 'string' &&
          ROUTES.has(kept.route as DerivedGrammar['route']);
        return whole ? { ebnf: kept.ebnf as string, root: kept.root as string, route: kept.route as DerivedGrammar['route'] } : undefined;
      } catch {
        return undefined;
      }
    },
    write(key, grammar) {
      try {
        // Written whole or not at all: a reader never sees half a file.
        const temp = `${path(key)}.${process.pid}.${threadId}.tmp`;
        writeFileSync(temp, JSON.stringify({ key, ...grammar }), { mode: 0o600 });
        renameSync(temp, path(key));
        prune(folder, build);
      } catch {
        // Not kept: the next run derives it again.
      }
    },
  };
}

/** A temporary file this old was left by a run that ended mid-write (a live one renames it within milliseconds). */
const LEFT_OVER_MS = 60_000;

/** Other builds' files and left-over temporary ones go; of this build's, the newest MAX_FILES stay. */
function prune(folder: string, build: string): void {
  const ours: Array<{ name: string; at: number }> = [];
  for (const name of readdirSync(folder)) {
    const at = statSync(join(folder, name)).mtimeMs;
    const mine = name.startsWith(`${build}-`);
    if (mine && name.endsWith('.json')) ours.push({ name, at });
    else if (!mine || Date.now() - at > LEFT_OVER_MS) rmSync(join(folder, name), { force: true });
  }
  ours.sort((a, b) => b.at - a.at);
  for (const { name } of ours.slice(MAX_FILES)) rmSync(join(folder, name), { force: true });
}
