/** The CLI as `npm run build` leaves it (dist/cli.js), run as a user runs it: from the repo, without colours or code cache. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(REPO, 'dist/cli.js');

export function runBuiltCli(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(CLI), 'dist/cli.js is missing: run npm run build first');
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, NO_COLOR: '1', TOOLSCOPE_CODE_CACHE: '0', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A report the CLI wrote, with its nonce (random per report) taken out. */
export async function reportText(path: string): Promise<string> {
  const html = await readFile(path, 'utf8');
  const nonce = /nonce="([^"]+)"/.exec(html)?.[1];
  assert.ok(nonce);
  return html.replaceAll(nonce, 'NONCE');
}
