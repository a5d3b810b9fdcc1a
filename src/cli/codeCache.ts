/**
 * Loading a CommonJS bundle with V8's code cache: the first run compiles the bundle and saves the compiled code
 * (`vm.Script#createCachedData`, after the command ran, so the functions it used are in it); later runs skip
 * parsing and compiling it. Node 22's `module.enableCompileCache()` does this for every module; Node 20 has only
 * the V8 API underneath, so the CLI's launcher uses that for its one big bundle.
 *
 * The cache lives in the user's own cache folder (`$XDG_CACHE_HOME/toolscope` or `~/.cache/toolscope`, created
 * 0700), never in a folder other users can write, keyed by Node's version and the bundle's size and time. Any
 * problem (no home folder, read-only disk, a cache V8 rejects) means a normal load, never a failure.
 * `TOOLSCOPE_CODE_CACHE=0` turns it off.
 */
import Module, { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { threadId } from 'node:worker_threads';
import { basename, dirname, join } from 'node:path';

function cacheFolder(): string | null {
  try {
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    const dir = join(base, 'toolscope');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Someone else's folder could hold code planted for us: only our own is used.
    if (typeof process.getuid === 'function' && statSync(dir).uid !== process.getuid()) return null;
    return dir;
  } catch {
    return null;
  }
}

function cacheFile(folder: string, file: string): string {
  const info = statSync(file);
  const key = createHash('sha256')
    .update(`${file}\0${info.size}\0${info.mtimeMs}\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}`)
    .digest('hex')
    .slice(0, 24);
  return join(folder, `${basename(file)}-${key}.v8cache`);
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
 * compiled are in it too.
 */
export function requireWithCodeCache(file: string, saveWhen: (save: () => void) => void = (save) => process.once('exit', save)): unknown {
  const folder = process.env.TOOLSCOPE_CODE_CACHE === '0' ? null : cacheFolder();
  const source = readFileSync(file, 'utf8');
  const cached = folder ? cacheFile(folder, file) : null;
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
    // Caches of earlier builds of the same bundle (another size, time or Node) are of no more use: one is kept.
    // (And the temporary file of a write that was cut short: a worker thread ends without finishing what it does.)
    const folder = dirname(path);
    const prefix = `${basename(path).slice(0, basename(path).lastIndexOf('-'))}-`;
    for (const name of readdirSync(folder)) {
      const stale = (name.endsWith('.v8cache') && name !== basename(path)) || name.endsWith('.tmp');
      if (name.startsWith(prefix) && stale) rmSync(join(folder, name), { force: true });
    }
  } catch {
    // A cache that cannot be written is only a slower next start.
  }
}
