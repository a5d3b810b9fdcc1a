/**
 * `toolscope analyze … | head`: the reader closes the pipe after what it wanted, and the CLI ends quietly (status 0,
 * nothing on stderr) instead of crashing on EPIPE with a stack trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './builtCli.ts';

test('a reader that closes standard output early ends the run quietly', async () => {
  const child = spawn(process.execPath, [join(REPO, 'dist/cli.js'), 'analyze', join(REPO, 'samples')], {
    env: { ...process.env, NO_COLOR: '1', TOOLSCOPE_CODE_CACHE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The first line, as `head -1` reads it, then the pipe is closed.
  child.stdout.once('data', () => child.stdout.destroy());
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  assert.equal(stderr, '', 'nothing on stderr');
  assert.equal(status, 0);
});
