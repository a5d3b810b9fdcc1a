/**
 * Work done in a child process: a script (TypeScript, an ES module, run with tsx) whose peak resident set size a
 * test compares with a bound, or which must end within a time (a read that could hang the test runner itself).
 * In a child, so the test runner's own heap and other tests do not count.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `script` in a fresh Node with tsx (`args` after it), killed after `timeoutMs`; its status and output. */
export function runTsChild(
  script: string,
  args: readonly string[] = [],
  timeoutMs = 120_000,
): { status: number | null; signal: string | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-child-'));
  try {
    const file = join(dir, 'child.mts');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: timeoutMs,
    });
    return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `script` in a child; its peak RSS in MB and its stdout. */
export function peakRssMb(script: string, args: readonly string[] = []): { mb: number; stdout: string } {
  const r = runTsChild(`${script}\nprocess.stdout.write('\\nPEAK_RSS_KB=' + process.resourceUsage().maxRSS + '\\n');\n`, args);
  if (r.status !== 0) throw new Error(`the child failed (${r.status ?? r.signal}): ${r.stderr}`);
  const match = /\nPEAK_RSS_KB=(\d+)/.exec(r.stdout);
  if (!match) throw new Error(`no peak figure in the child's output: ${r.stdout.slice(-500)}`);
  return { mb: Number(match[1]) / 1024, stdout: r.stdout.slice(0, match.index) };
}
