// One build for every entry point: the extension host bundle, the CLI and the benchmarks.
import { build } from 'esbuild';
import { Buffer } from 'node:buffer';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realpathSync } from 'node:fs';

/**
 * A module served from a plugin's namespace: esbuild names it by `path` in the bundle (a comment and the module's key),
 * so the path is the file's relative to this repository; the absolute one, which would put the building machine's
 * folders into every shipped bundle, travels as plugin data.
 */
function inNamespace(file, namespace) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  return { path: relative(root, file).split('\\').join('/'), namespace, pluginData: { file } };
}

/**
 * @mlc-ai/web-xgrammar is a UMD bundle in a `"type": "module"` package: esbuild honours the flag, the UMD
 * wrapper then finds no `exports` and the module comes out empty. Serving its text from a namespace of our own
 * lets esbuild judge the format by syntax (CommonJS), so the bundles get the real exports (WASM inlined).
 */
export const umdAsCommonJs = {
  name: 'umd-as-commonjs',
  setup(b) {
    const require = createRequire(import.meta.url);
    b.onResolve({ filter: /^@mlc-ai\/web-xgrammar$/ }, (args) => inNamespace(require.resolve(args.path), 'umd-as-commonjs'));
    b.onLoad({ filter: /.*/, namespace: 'umd-as-commonjs' }, async (args) => ({
      contents: await readFile(args.pluginData.file, 'utf8'),
      loader: 'js',
      resolveDir: dirname(args.pluginData.file),
    }));
  },
};

/**
 * The CLI's grammar-engine bundle keeps xgrammar's WASM beside it (`xgrammar.wasm` in `outdir`) instead of inlined as
 * base64: a short `analyze` waits for that worker, and the 1.1 MB string cost it on every start reading, hashing
 * and converting the bundle, a code cache as large again, and decoding it (~10 ms of the worker's CPU, measured).
 * Emscripten reads a `wasmBinaryFile` that is no data URI from the script's own folder (`locateFile`), so the file is
 * found beside the bundle. The WASM is written by the same build as the bundle, so the bundle's hash (which keys its
 * code cache and derived grammars) stands for both.
 */
export function xgrammarWasmBeside(outdir) {
  return {
    name: 'xgrammar-wasm-beside',
    setup(b) {
      const require = createRequire(import.meta.url);
      b.onResolve({ filter: /^@mlc-ai\/web-xgrammar$/ }, (args) => inNamespace(require.resolve(args.path), 'xgrammar-wasm-beside'));
      b.onLoad({ filter: /.*/, namespace: 'xgrammar-wasm-beside' }, async (args) => {
        const text = await readFile(args.pluginData.file, 'utf8');
        const inlined = /wasmBinaryFile="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(text);
        if (!inlined) throw new Error(`${args.pluginData.file}: no inlined WASM found (has @mlc-ai/web-xgrammar changed its build?)`);
        await mkdir(outdir, { recursive: true });
        await writeFile(join(outdir, XGRAMMAR_WASM), Buffer.from(inlined[1], 'base64'));
        return {
          contents: text.replace(inlined[0], `wasmBinaryFile=${JSON.stringify(XGRAMMAR_WASM)}`),
          loader: 'js',
          resolveDir: dirname(args.pluginData.file),
        };
      });
    },
  };
}
export const XGRAMMAR_WASM = 'xgrammar.wasm';

/**
 * o200k_base's ranks (js-tiktoken, 2 MB) are read on first use of gpt-oss's tokenizer: the bundles require them
 * from a file of their own beside them (dist/o200k_base.js), so the CLI and the extension start without them.
 */
export const O200K_RANKS = 'js-tiktoken/ranks/o200k_base';
export const ranksBesideBundle = {
  name: 'ranks-beside-bundle',
  setup(b) {
    b.onResolve({ filter: /^js-tiktoken\/ranks\/o200k_base$/ }, () => ({ path: './o200k_base.js', external: true }));
  },
};

/**
 * commander requires child_process when it loads, for executable subcommands (`program.command('x', 'desc')` run
 * as a separate program), which Toolscope has none of; with the net and dgram modules it pulls in, that was a
 * few ms of every CLI start's main thread. The bundles get a commander that requires it on first use.
 */
export const commanderSpawnOnUse = {
  name: 'commander-spawn-on-use',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${args.path}: no "${eager}" (has commander changed?): update commanderSpawnOnUse`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: text.replace(eager, lazy), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * The meta-schema validators (src/core/schema/metaSchemaValidators.ts) are made at build time: ajv's standalone
 * code for each draft's meta-schema (scripts/metaSchemaCode.ts, generated once per build), so the bundles check the
 * first tool schema without compiling its meta-schema. Running from source compiles it at run time instead.
 */
let metaSchemaModule;
export const precompiledMetaSchemas = {
  name: 'precompiled-meta-schemas',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]schema[\\/]metaSchemaValidators\.ts$/ }, async (args) => {
      metaSchemaModule ??= generateMetaSchemaModule();
      return { contents: await metaSchemaModule, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Runs scripts/metaSchemaCode.ts (bundled on its own: one copy of ajv, whatever loaders this process has). */
async function generateMetaSchemaModule() {
  const generator = await build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'metaSchemaCode.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', generator.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  return module.exports.metaSchemaValidatorsModule();
}

const production = process.argv.includes('--production');
/** The version `--version`, SARIF and eval results' evidence name (src/cli/main.ts reads TOOLSCOPE_VERSION). */
const { version } = JSON.parse(await readFile(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8'));

const common = {
  plugins: [umdAsCommonJs, ranksBesideBundle, precompiledMetaSchemas, commanderSpawnOnUse],
  define: { TOOLSCOPE_VERSION: JSON.stringify(version) },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
};

/**
 * What `toolscope analyze` reads at start-up (the CLI's bundles and the grammar worker's) is written without
 * whitespace or comments, and must be ASCII: Node reads a file holding any other character into a two-byte string,
 * ~10 ms slower for the 3 MB CLI bundle, and V8 scans it slower too. Names are kept (stack traces show them), the
 * source map has the rest, and legal comments go to a `.LEGAL.txt` beside the bundle. Production builds minify anyway.
 */
const STARTUP = { minifyWhitespace: true, legalComments: 'linked' };

/** Fails the build when a start-up bundle is not ASCII, naming the first character that is not and its place. */
async function assertAscii(files) {
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const at = text.search(/\P{ASCII}/u);
    if (at < 0) continue;
    const line = text.slice(0, at).split('\n').length;
    throw new Error(
      `${file}:${line}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))} is not ASCII: a start-up bundle must be (scripts/build.mjs); ` +
        'write the character as a \\u escape in the source',
    );
  }
}

/**
 * Builds the bundles into `outdir`: the extension host, the grammar-engine worker beside it (guidedEngine.ts
 * starts `guidedWorker.js` from the bundle's own folder), the webview script and stylesheet (what the .vsix
 * ships), and, unless `shippedOnly`, the CLI (launcher and main bundle) and the benchmarks. scripts/package.mjs builds a production set
 * elsewhere.
 */
export function buildBundles({ outdir = 'dist', shippedOnly = false, production: prod = production } = {}) {
  const opts = { ...common, sourcemap: prod ? false : 'linked', minify: prod };
  const startup = prod ? opts : { ...opts, ...STARTUP };
  const built = Promise.all([
    // VS Code loads extension.js, a small entry that loads the extension itself (extension-main.js) through V8's code
    // cache (src/extension/extensionEntry.ts): the host has none for extensions, and compiling the bundle was most of
    // the activation on the way to the first trace's paint.
    build({ ...opts, entryPoints: ['src/extension/extensionEntry.ts'], outfile: `${outdir}/extension.js`, external: ['vscode'] }),
    build({ ...opts, entryPoints: ['src/extension/extension.ts'], outfile: `${outdir}/extension-main.js`, external: ['vscode'] }),
    // The trace editor's list workers (src/host/view/listWorkers.ts starts listWorker.js beside the extension's bundle),
    // a small entry that loads the list worker itself (listWorker-main.js) through V8's code cache.
    build({ ...opts, entryPoints: ['src/host/view/listWorkerEntry.ts'], outfile: `${outdir}/listWorker.js` }),
    build({ ...opts, entryPoints: ['src/host/view/listWorker.ts'], outfile: `${outdir}/listWorker-main.js` }),
    // The ranks themselves, required by the bundles above on first use.
    build({
      ...opts,
      plugins: [],
      sourcemap: false,
      entryPoints: [createRequire(import.meta.url).resolve(O200K_RANKS)],
      outfile: `${outdir}/o200k_base.js`,
    }),
    // The grammar worker. The CLI's build starts it through a small entry that loads the engine's bundle with V8's
    // code cache (src/cli/guidedWorkerLoader.ts); that bundle is compiled by vm.Script, which has no dynamic import()
    // in Node 20, so esbuild writes those as require(). The extension's package ships the engine as guidedWorker.js.
    ...(prod
      ? [build({ ...opts, entryPoints: ['src/io/guided/engineWorker.ts'], outfile: `${outdir}/guidedWorker.js` })]
      : [
          build({ ...startup, entryPoints: ['src/cli/guidedWorkerLoader.ts'], outfile: `${outdir}/guidedWorker.js` }),
          build({
            ...startup,
            plugins: [xgrammarWasmBeside(outdir), ...startup.plugins],
            supported: { 'dynamic-import': false },
            entryPoints: ['src/io/guided/engineWorker.ts'],
            outfile: `${outdir}/guidedWorker-engine.js`,
          }),
        ]),
    ...(shippedOnly
      ? []
      : [
          // The command is a small launcher (it starts the grammar worker first and loads the rest through V8's
          // code cache); the CLI itself is cli-main.js beside it.
          build({ ...startup, entryPoints: ['src/cli/launcher.ts'], outfile: `${outdir}/cli.js`, banner: { js: '#!/usr/bin/env node' } }),
          build({ ...startup, entryPoints: ['src/cli/main.ts'], outfile: `${outdir}/cli-main.js` }),
          // The thread that encodes `analyze --parquet`'s tables (src/io/tables/parquetTables.ts starts it beside the
          // CLI's bundle): a bundle of its own, a tenth of the CLI's, so the thread starts in a few milliseconds.
          build({ ...opts, entryPoints: ['src/io/tables/parquetTablesWorker.ts'], outfile: `${outdir}/tablesWorker.js` }),
          build({ ...opts, entryPoints: ['bench/main.ts'], outfile: `${outdir}/bench.js` }),
        ]),
    // The webview runs in a browser: one IIFE bundle. Its modules import their stylesheets (the shell's first, then
    // each tab's), which esbuild joins into one stylesheet beside it: webview.css, the one <link> the page loads.
    build({
      ...opts,
      platform: 'browser',
      target: 'chrome120',
      format: 'iife',
      entryPoints: ['webview/main.ts'],
      outfile: `${outdir}/webview.js`,
    }),
  ]);
  if (prod) return built;
  const worker = ['guidedWorker.js', 'guidedWorker-engine.js'];
  const checked = shippedOnly ? worker : [...worker, 'cli.js', 'cli-main.js'];
  return built.then(async (results) => {
    await assertAscii(checked.map((f) => `${outdir}/${f}`));
    return results;
  });
}

// Imported (tests take the plugin from here) it builds nothing; run as a script it builds everything.
const isMain = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);

if (isMain) await buildBundles();
