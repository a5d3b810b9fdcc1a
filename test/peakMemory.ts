/**
 * Peak memory of work done in a child process: the child runs a script (TypeScript, an ES module, with tsx) and
 * prints its peak resident set size, which the test compares with a bound. In a child, so the test runner's own
 * heap and other tests do not count.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `script` in a fresh Node with tsx (`args` after it); its peak RSS in MB and its stdout. */
export function peakRssMb(script: string, args: readonly string[] = []): { mb: number; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-peak-'));
  try {
    const file = join(dir, 'child.mts');
    writeFileSync(file, `${script}\nprocess.stdout.write('\\nPEAK_RSS_KB=' + process.resourceUsage().maxRSS + '\\n');\n`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`the child failed (${result.status}): ${result.stderr}`);
    const match = /\nPEAK_RSS_KB=(\d+)/.exec(result.stdout);
    if (!match) throw new Error(`no peak figure in the child's output: ${result.stdout.slice(-500)}`);
    return { mb: Number(match[1]) / 1024, stdout: result.stdout.slice(0, match.index) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
