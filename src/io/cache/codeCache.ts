/**
 * Loading a CommonJS bundle with V8's code cache: the first run compiles the bundle and saves the compiled code
 * (`vm.Script#createCachedData`, after the command ran, so the functions it used are in it); later runs skip
 * parsing and compiling it. Node 22's `module.enableCompileCache()` does this for every module; Node 20 has only
 * the V8 API underneath, so the CLI's launcher uses that for its one big bundle, and the extension's entry for its own
 * (src/extension/extensionEntry.ts).
 *
 * The cache lives in the user's own cache folder (src/io/cache/userCacheFolder.ts), keyed by the sha256 of the bundle's
 * bytes (src/io/cache/bundleHash.ts) and Node's version, and sealed (src/io/cache/cacheFiles.ts): V8 release builds
 * check only a cache's version, flags and the source's length, and run whatever else it holds, so a corrupt cache
 * crashed every run and a rebuilt bundle of the same length ran the old code. A cache is handed to V8 only when its
 * header names this bundle's hash and the sha256 of its bytes matches; anything else (no home folder, read-only disk,
 * a cache V8 rejects) means a normal load and a new cache, never a failure. `TOOLSCOPE_CODE_CACHE=0` turns it off.
 */
import Module, { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { sha256Hex } from './sha256.ts';
import { readFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { isMainThread } from 'node:worker_threads';
import { basename, dirname } from 'node:path';
import { userCacheFolder } from './userCacheFolder.ts';
import { cacheFiles, isLeftOver, type CacheFiles } from './cacheFiles.ts';
import { bundleHash } from './bundleHash.ts';
import { startupMark } from '../../core/util/startupMarks.ts';

/**
 * Names: `<bundle>-<flags>-<build>.v8cache`, the flags' and the build's keys in hex (and, from before the flags were
 * in the name, `<bundle>-<build>.v8cache`, pruned like any other build's).
 */
const CACHE_NAME = /^([A-Za-z0-9._-]+\.js)-(?:[0-9a-f]{8}-)?[0-9a-f]{24}\.v8cache$/;

/** Where a bundle's cache is and what it must be sealed for. */
interface CacheSlot {
  files: CacheFiles;
  name: string;
  /** The full key: the bundle's hash, Node, and the flags. */
  seal: string;
}

function cacheSlot(folder: string, file: string, bytes: Uint8Array, runtimeFlags: string): CacheSlot {
  const build = sha256Hex(`${bundleHash(file, bytes)}\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}`);
  // The flags name a cache of their own (saveCache keeps one cache per bundle and flags: another build's is stale,
  // the other flags' is not).
  const flags = sha256Hex(runtimeFlags).slice(0, 8);
  return {
    files: cacheFiles(folder, CACHE_NAME),
    name: `${basename(file)}-${flags}-${build.slice(0, 24)}.v8cache`,
    seal: `${build}-${flags}`,
  };
}

interface CommonJsModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
}

/**
 * `require(file)`, with the compiled code cached between runs; returns the module's exports. A missing, bad or
 * rejected cache is written when `saveWhen` calls back: by default when the process exits, so the functions the
 * command compiled are in it too. `runtimeFlags`: the V8 flags set at run time before the cache is written (the
 * launcher's for short runs). V8 rejects a cache made under other flags, so each set of flags keeps its own cache:
 * runs with and without them would otherwise throw each other's cache away.
 */
export function requireWithCodeCache(
  file: string,
  runtimeFlags = '',
  saveWhen: (save: () => void) => void = (save) => process.once('exit', save),
): unknown {
  return compileWithCodeCache(file, runtimeFlags, saveWhen)();
}

/**
 * requireWithCodeCache in two steps: the bundle is compiled now (its code cache checked against V8's flags as they
 * are now), and the returned function runs it and returns its exports. Between the two the caller may change V8's
 * flags (the launcher does, for a short run): a cache is only checked when it is read, and what runs afterwards
 * compiles under the new flags.
 */
export function compileWithCodeCache(
  file: string,
  runtimeFlags = '',
  saveWhen: (save: () => void) => void = (save) => process.once('exit', save),
): () => unknown {
  const bytes = readFileSync(file);
  // The CLI's bundles are ASCII (scripts/build.mjs): as Latin-1 they are the same string, made ~2 ms faster than
  // from UTF-8 for the 2.3 MB bundle.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const folder = userCacheFolder();
  const checking = performance.now();
  const cpu = process.cpuUsage();
  const slot = folder ? cacheSlot(folder, file, bytes, runtimeFlags) : null;
  const cachedData = slot?.files.read(slot.name, slot.seal);
  // For the bench: what the check costs a run, in time and in the process's CPU time (which a busy machine does not
  // stretch). The main thread's: a worker's marks are not printed.
  if (slot && isMainThread) {
    const { user, system } = process.cpuUsage(cpu);
    startupMark('code-cache-checked', { ms: performance.now() - checking, cpuMs: (user + system) / 1000, hit: cachedData ? 1 : 0 });
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
  if (slot && (cachedData === undefined || script.cachedDataRejected)) saveWhen(() => saveCache(script, slot));
  return () => {
    wrapper.call(mod.exports, mod.exports, require, mod, file, dirname(file));
    mod.loaded = true;
    return mod.exports;
  };
}

/**
 * Writes the cache, then prunes: caches of earlier builds of the same bundle (another content or Node) are of no more
 * use, this build's caches under other flags are; and temporary files left by writes that were cut short (a worker
 * thread ends without finishing what it does when its process exits).
 */
function saveCache(script: Script, { files, name, seal }: CacheSlot): void {
  try {
    if (!files.write(name, seal, script.createCachedData())) return;
    const bundle = CACHE_NAME.exec(name)?.[1];
    const build = name.slice(name.lastIndexOf('-'));
    for (const entry of files.entries()) {
      if (entry.name === name || CACHE_NAME.exec(entry.file)?.[1] !== bundle) continue;
      if (entry.temp ? isLeftOver(entry) : !entry.file.endsWith(build)) files.remove(entry.name);
    }
  } catch {
    // A cache that cannot be written is only a slower next start.
  }
}
