/**
 * The bundles `npm run build` writes are shipped (the .vsix, the CLI): none may carry the folders of the machine that
 * built them. esbuild writes a module's path into the bundle (a comment and the module's key), and a module a build
 * plugin serves from a namespace of its own is named by whatever path the plugin gives it (scripts/build.mjs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './builtCli.ts';

test('no bundle in dist/ holds the absolute path of the checkout that built it', () => {
  const dist = join(REPO, 'dist');
  assert.ok(existsSync(join(dist, 'cli.js')), 'dist/ is missing: run npm run build first');
  const roots = [...new Set([REPO, realpathSync(REPO) + '/'].map((r) => r.replace(/\/$/, '')))];
  const bundles = readdirSync(dist).filter((f) => f.endsWith('.js'));
  assert.ok(bundles.includes('guidedWorker-engine.js'), 'the grammar engine bundle is among them');
  const found = bundles.flatMap((f) => {
    const text = readFileSync(join(dist, f), 'utf8');
    return roots.filter((r) => text.includes(r)).map((r) => `${f}: ${r}`);
  });
  assert.deepEqual(found, []);
});
