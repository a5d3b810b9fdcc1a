/**
 * Derived grammars (src/core/guided/derivedGrammarStore.ts) kept as files in the user's cache folder
 * (`toolscope/grammars`), one per tag, named by the build that derived them (the sha256 of the engine's bundle:
 * bundleHash.ts): another build (other lowering code, another web-xgrammar) may derive another grammar, so its files
 * are not read, and are removed when this build writes. At most MAX_FILES are kept, the oldest go first. Files are
 * read, written and pruned by cacheFiles.ts: sealed (a file that is not whole, edited or not for its key is a miss and
 * is derived again, never an error or a wrong grammar), regular files of the folder's own names only.
 */
import type { DerivedGrammar, DerivedGrammarStore } from '../../core/guided/derivedGrammarStore.ts';
import { userCacheFolder } from './userCacheFolder.ts';
import { cacheFiles, isLeftOver, type CacheFiles } from './cacheFiles.ts';
import { bundleHash } from './bundleHash.ts';

/** Tool sets kept: an agent has a few; a corpus of many agents' traces should not grow the folder without end. */
const MAX_FILES = 256;

/** `<build>-<key>.json`: the build's 16 hex digits, the tag's key (its sha256). */
const GRAMMAR_NAME = /^[0-9a-f]{16}-[0-9a-f]{64}\.json$/;
const BUILD = /^[0-9a-f]{16}$/;

const ROUTES = new Set<DerivedGrammar['route']>(['direct', 'patched-ebnf']);

/** The build of the bundle at `file`, as a short key: its content's hash. */
export function bundleBuild(file: string): string {
  return bundleHash(file).slice(0, 16);
}

/** The store of the build `build` (16 hex digits); null when there is no cache folder (or caching is off). */
export function derivedGrammarFiles(build: string): DerivedGrammarStore | null {
  if (!BUILD.test(build)) return null;
  const folder = userCacheFolder('grammars');
  if (folder === null) return null;
  const files = cacheFiles(folder, GRAMMAR_NAME);
  const name = (key: string) => `${build}-${key}.json`;
  return {
    read(key) {
      const bytes = files.read(name(key), name(key));
      if (bytes === undefined) return undefined;
      try {
        const kept = JSON.parse(bytes.toString('utf8')) as Partial<DerivedGrammar>;
        const whole = typeof kept.ebnf === 'string' && typeof kept.root === 'string' && ROUTES.has(kept.route as DerivedGrammar['route']);
        return whole ? { ebnf: kept.ebnf as string, root: kept.root as string, route: kept.route as DerivedGrammar['route'] } : undefined;
      } catch {
        return undefined;
      }
    },
    write(key, grammar) {
      const { ebnf, root, route } = grammar;
      // Not kept when it cannot be written: the next run derives it again.
      if (!files.write(name(key), name(key), Buffer.from(JSON.stringify({ ebnf, root, route }), 'utf8'))) return;
      try {
        prune(files, build);
      } catch {
        // Pruned by a later write.
      }
    },
  };
}

/** Other builds' files and left-over temporary ones go; of this build's, the newest MAX_FILES stay. */
function prune(files: CacheFiles, build: string): void {
  const ours: Array<{ name: string; at: number }> = [];
  for (const entry of files.entries()) {
    if (entry.temp) {
      if (isLeftOver(entry)) files.remove(entry.name);
    } else if (entry.file.startsWith(`${build}-`)) ours.push({ name: entry.name, at: entry.mtimeMs });
    else files.remove(entry.name);
  }
  ours.sort((a, b) => b.at - a.at);
  for (const { name } of ours.slice(MAX_FILES)) files.remove(name);
}
