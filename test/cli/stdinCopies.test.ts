/**
 * `analyze -` copies standard input to a private temporary folder: the copy is gone however the run ends — a
 * Ctrl-C while it reads (SIGINT), or a reader that closes the pipe early (EPIPE ends the run at once).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');

/** Runs `analyze -` with its own temp folder; `drive` feeds and ends it. Resolves with how it ended and what remains. */
async function run(drive: (child: ReturnType<typeof spawn>, temp: string) => Promise<void>) {
  const temp = await mkdtemp(join(tmpdir(), 'toolscope-stdin-test-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'analyze', '-', '--no-guided'], {
      cwd: repo,
      env: { ...process.env, TMPDIR: temp, NO_COLOR: '1', TOOLSCOPE_CODE_CACHE: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    await drive(child, temp);
    const end = await ended;
    return { ...end, stderr, left: await copies(temp) };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The copies' folders in `temp` (tsx keeps its own cache there too). */
async function copies(temp: string): Promise<string[]> {
  return (await readdir(temp)).filter((name) => name.startsWith('toolscope-stdin-'));
}

/** Polls `condition`; a child that died before it held (a broken install) fails the test instead of hanging it. */
async function until(condition: () => Promise<boolean>, child: ReturnType<typeof spawn>): Promise<void> {
  while (!(await condition())) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the run ended before the copy was made');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('Ctrl-C while standard input is being copied removes the copy, and the run still dies of SIGINT', async () => {
  const line = `${(await readFile(join(repo, 'samples/kimi-k2-raw-completions.jsonl'), 'utf8')).split('\n')[0]}\n`;
  const end = await run(async (child, temp) => {
    child.stdin?.write(line);
    // The copy's folder exists; standard input stays open, so the run is still copying.
    await until(async () => (await copies(temp)).length > 0, child);
    child.kill('SIGINT');
  });
  assert.equal(end.signal, 'SIGINT', end.stderr);
  assert.deepEqual(end.left, [], 'no copy left in the temp folder');
});

test('a reader that closes the pipe early (EPIPE) leaves no copy behind', async () => {
  const samples = await readFile(join(repo, 'samples/kimi-k2-raw-completions.jsonl'), 'utf8');
  const end = await run(async (child) => {
    child.stdout?.once('data', () => child.stdout?.destroy());
    child.stdin?.end(samples.repeat(20));
  });
  assert.equal(end.code, 0, end.stderr);
  assert.deepEqual(end.left, [], 'no copy left in the temp folder');
});
