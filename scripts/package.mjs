#!/usr/bin/env node
// `npm run package`: the extension as a .vsix. Production bundles (minified, no source maps) are built in a
// staging folder with the files the manifest needs, and @vscode/vsce packs that folder, so dist/ keeps the
// development build. usage: node scripts/package.mjs [--out FILE]   (default: toolscope-<version>.vsix here)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, URL } from 'node:url';
import { buildBundles } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = resolve(outArg >= 0 && args[outArg + 1] ? args[outArg + 1] : join(root, `${pkg.name}-${pkg.version}.vsix`));
/** What a .vsix may weigh (the budget, xgrammar's WASM included). */
const BUDGET = 5 * 1024 * 1024;

const stage = mkdtempSync(join(tmpdir(), 'toolscope-vsix-'));
try {
  const t0 = performance.now();
  process.chdir(root);
  await buildBundles({ outdir: join(stage, 'dist'), shippedOnly: true, production: true });
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) cpSync(f, join(stage, f));
  for (const d of ['media', 'samples', 'docs/images']) cpSync(d, join(stage, d), { recursive: true });
  const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
  // --no-dependencies: everything is bundled; vsce neither runs npm nor packs node_modules. The project has no
  // public repository yet, so none is named (no made-up URL): the README's images ship in the package and its
  // relative links stay relative, which is how VS Code shows an installed extension's README.
  const r = spawnSync(
    process.execPath,
    [
      vsce,
      'package',
      '--no-dependencies',
      '--no-update-package-json',
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      '--out',
      out,
    ],
    { cwd: stage, stdio: 'inherit' },
  );
  if (r.status !== 0) {
    console.error('vsce package failed');
    process.exit(r.status ?? 1);
  }
  const size = statSync(out).size;
  const mb = (size / 1024 / 1024).toFixed(2);
  console.log(`${out}: ${mb} MB (budget ${BUDGET / 1024 / 1024} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (size > BUDGET) {
    console.error(`the package is over its ${BUDGET / 1024 / 1024} MB budget`);
    process.exit(1);
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
