/**
 * The `toolscope` command built as scripts/build.mjs builds it (launcher, CLI bundle, grammar worker, with the
 * build's plugins) into a folder of a test's own, for tests that run the command as users run it.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

export async function buildCli(dir: string): Promise<void> {
  const { umdAsCommonJs, ranksBesideBundle, commanderSpawnOnUse } = (await import(
    pathToFileURL(join(ROOT, 'scripts/build.mjs')).href
  )) as Record<string, Plugin>;
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'cjs' as const,
    logLevel: 'warning' as const,
    plugins: [umdAsCommonJs, ranksBesideBundle, commanderSpawnOnUse] as Plugin[],
  };
  await Promise.all([
    build({ ...common, entryPoints: [join(ROOT, 'src/cli/launcher.ts')], outfile: join(dir, 'cli.js') }),
    build({ ...common, entryPoints: [join(ROOT, 'src/cli/main.ts')], outfile: join(dir, 'cli-main.js') }),
    build({ ...common, entryPoints: [join(ROOT, 'src/io/guided/engineWorker.ts')], outfile: join(dir, 'guidedWorker.js') }),
  ]);
}
