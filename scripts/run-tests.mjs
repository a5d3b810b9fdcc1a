// Node 20's test runner takes no globs: find test files here and hand them to `node --test` with tsx.
// With no arguments the suites run in phases, fast first: the unit suites, then the browser suites (chromium),
// then the workbench suites (code-server + chromium, one file at a time). A failed phase stops the run.
// With directories as arguments, the test files under them run in one go.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

function find(path) {
  if (!statSync(path).isDirectory()) return path.endsWith('.test.ts') ? [path] : [];
  const out = [];
  for (const entry of readdirSync(path, { withFileTypes: true })) out.push(...find(join(path, entry.name)));
  return out;
}

function run(files, extra = []) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...extra, ...files.sort()], {
    stdio: 'inherit',
  });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args.length) process.exit(run(args.flatMap(find)));

const BROWSER = join('test', 'webview');
const WORKBENCH = join('test', 'workbench');
const all = find('test');
// Each test file (and test) has a time limit far above its longest run here, so a hang fails its phase in minutes
// instead of running out CI's clock. (The runner's limit is kept by the parent process: it holds even when a file
// spins its own event loop, as a list-worker bug once did.)
const phases = [
  // Two test files at a time: on the 2-core CI machine one at a time left a core idle while a file's process started
  // (181 files, 615 s one at a time here). Each file still has a core to itself for its loose linear-time bounds.
  {
    name: 'fast suites',
    files: all.filter((f) => !f.startsWith(BROWSER) && !f.startsWith(WORKBENCH)),
    extra: ['--test-concurrency=2', '--test-timeout=600000'],
  },
  { name: 'browser suites (chromium)', files: all.filter((f) => f.startsWith(BROWSER)), extra: ['--test-timeout=600000'] },
  {
    name: 'workbench suites (code-server + chromium)',
    files: all.filter((f) => f.startsWith(WORKBENCH)),
    extra: ['--test-concurrency=1', '--test-timeout=1200000'],
  },
];
const times = [];
for (const phase of phases) {
  if (!phase.files.length) continue;
  console.log(`\n=== ${phase.name}: ${phase.files.length} files ===\n`);
  const t0 = performance.now();
  const status = run(phase.files, phase.extra);
  times.push(`${phase.name} ${((performance.now() - t0) / 1000).toFixed(0)} s${status ? ' (FAILED)' : ''}`);
  if (status) {
    console.log(`\n${times.join(' · ')}`);
    process.exit(status);
  }
}
console.log(`\n${times.join(' · ')}`);
