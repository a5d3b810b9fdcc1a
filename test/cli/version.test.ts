/** The built CLI's `--version` is package.json's version (it said 0.0.0-dev: nothing defined it). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runBuiltCli } from './builtCli.ts';

test('toolscope --version prints the version in package.json', () => {
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  const r = runBuiltCli(['--version']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), version);
  assert.notEqual(version, '0.0.0-dev');
});
