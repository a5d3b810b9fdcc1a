// One build for every entry point: the extension host bundle, the CLI and the benchmarks.
import { build } from 'esbuild';

const production = process.argv.includes('--production');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
};

await Promise.all([
  build({ ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...common, entryPoints: ['bench/main.ts'], outfile: 'dist/bench.js' }),
  // The webview runs in a browser: one IIFE bundle, its stylesheet beside it.
  build({
    ...common,
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
  }),
  build({ ...common, platform: 'browser', entryPoints: ['media/toolscope.css'], outfile: 'dist/webview.css' }),
]);
