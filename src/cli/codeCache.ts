/**
 * Loading a CommonJS bundle with V8's code cache: the first run compiles the bundle and saves the compiled code
 * (`vm.Script#createCachedData`, after the command ran, so the functions it used are in it); later runs skip
 * parsing and compiling it. Node 22's `module.enableCompileCache()` does this for every module; Node 20 has only
 * the V8 API underneath, so the CLI's launcher uses that for its one big bundle.
 *
 * The cache lives in the user's own cache folder (src/io/cache/userCacheFolder.ts), keyed by Node's version and the
 * bundle's size and time. Any problem (no home folder, read-only disk, a cache V8 rejects) means a normal load, never
 * a failure. `TOOLSCOPE_CODE_CACHE=0` turns it off.
 */
import Module, { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { basename, dirname, join } from 'node:path';
import { userCacheFolder } from '../io/cache/userCacheFolder.ts';

function cacheFile(folder: string, file: string, runtimeFlags: string): string {
  const info = statSync(file);
  const key = createHash('sha256')
    .update(`${file}\0${info.size}\0${info.mtimeMs}\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}`)
    .digest('hex')
    .slice(0, 24);
  // The flags name a cache of their own (saveCache keeps one cache per bundle and flags: another build's is stale,
  // the other flags' is not).
  const flags = createHash('sha256').update(runtimeFlags).digest('hex').slice(0, 8);
  return join(folder, `${basename(file)}-${flags}-${key}.v8cache`);
}

interface CommonJsModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
}

/**
 * `require(file)`, with the compiled code cached between runs; returns the module's exports. A missing or rejected
 * cache is written when `saveWhen` calls back: by default when the process exits, so the functions the command
 * compiled are in it too. `runtimeFlags`: the V8 flags set at run time before the cache is written (the launcher's
 * for short runs). V8 rejects a cache made under other flags, so each set of flags keeps its own cache: runs with
 * and without them would otherwise throw each other's cache away.
 */
export function requireWithCodeCache(
  file: string,
  runtimeFlags = '',
  saveWhen: (save: () => void) => void = (save) => process.once('exit', save),
): unknown {
  const folder = userCacheFolder();
  const source = readFileSync(file, 'utf8');
  const cached = folder ? cacheFile(folder, file, runtimeFlags) : null;
  let cachedData: Buffer | undefined;
  if (cached) {
    try {
      cachedData = readFileSync(cached);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: CommonJsModule,
    filename: string,
    dirname: string,
  ) => void;
  const mod = new Module(file) as unknown as CommonJsModule;
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const require = createRequire(file);
  if (cached && (cachedData === undefined || script.cachedDataRejected)) saveWhen(() => saveCache(script, cached));
  wrapper.call(mod.exports, mod.exports, require, mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports;
}

function saveCache(script: Script, path: string): void {
  try {
    // Per thread: the grammar workers of one process may write the same cache at once.
    const temp = `${path}.${process.pid}.${threadId}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, path);
    // Caches of earlier builds of the same bundle (another size, time or Node; or named before the flags were) are of
    // no more use; this build's caches under other flags are. (And the temporary file of a write that was cut short:
    // a worker thread ends without finishing what it does.) Names: `<bundle>-<flags>-<build key>.v8cache`.
    const folder = dirname(path);
    const ours = basename(path);
    const build = ours.slice(ours.lastIndexOf('-'));
    const withFlags = ours.slice(0, ours.lastIndexOf('-'));
    const prefix = `${withFlags.slice(0, withFlags.lastIndexOf('-'))}-`;
    for (const name of readdirSync(folder)) {
      const stale = (name.endsWith('.v8cache') && !name.endsWith(build)) || name.endsWith('.tmp');
      if (name.startsWith(prefix) && stale) rmSync(join(folder, name), { force: true });
    }
  } catch {
    // A cache that cannot be written is only a slower next start.
  }
}
