/**
 * `toolscope analyze` beside vLLM's own Kimi K2 parser (generation C, vLLM b8fb56d), both as whole processes on the
 * same input files, alternated run by run so that a machine whose speed drifts moves both alike. The timing is the
 * shared harness's (`../shared/tools/vllm-harness/side_by_side.sh`): it extracts vLLM's parser files from a local
 * git clone into a temp folder at run time, so nothing of vLLM enters the project. Without a clone holding the
 * harness's commits (or without a Python that has `regex` and pydantic v2) the bench says so and prints no ratio: a
 * ratio to another tool is only ever measured beside it, never against a remembered figure.
 *
 * Where NODE_EXTRA_CA_CERTS is set (this environment), the pairs are run twice: as set, and with it unset for both
 * sides, each table named by its condition (Node parses those certificates at every start; a typical machine has none).
 *
 * TOOLSCOPE_VLLM_HARNESS names another harness folder; VLLM_GIT_DIR (the harness's own) names the clone;
 * TOOLSCOPE_BENCH_VLLM_PAIRS sets the pairs per input (default 9, at least 7 for a median worth printing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/** Goals of the ratio vLLM C / Toolscope, per input (the issue's: ≥ 2× on 20 calls, ≥ 10× on 1000). */
const GOALS: Record<string, number> = { calls20: 2, calls1000: 10 };
const INPUTS = ['calls20', 'calls200', 'calls1000'];
const MIN_PAIRS = 7;

export interface SideBySideRow {
  input: string;
  vllmMin: number;
  vllmMedian: number;
  otherMin: number;
  otherMedian: number;
  ratioMedian: number;
}

/** The harness's result lines (`input=… vllm_c_min=… … ratio_median=…`), seconds and ratios as numbers. */
export function parseSideBySide(stdout: string): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('input=')) continue;
    const field = (k: string) => Number(new RegExp(`(?:^| )${k}=(\\S+)`).exec(line)?.[1]);
    const row = {
      input: /^input=(\S+)/.exec(line)?.[1] ?? '',
      vllmMin: field('vllm_c_min'),
      vllmMedian: field('vllm_c_median'),
      otherMin: field('other_min'),
      otherMedian: field('other_median'),
      ratioMedian: field('ratio_median'),
    };
    if (Object.values(row).every((v) => typeof v === 'string' || Number.isFinite(v))) rows.push(row);
  }
  return rows;
}

/**
 * What starting the Python of vLLM's side costs here: `python -c pass` (the minimum of a few runs), and how much of that
 * is `site` (the same with -S), which imports whatever the .pth files in site-packages name at every start. A machine's
 * own .pth is part of every vLLM run, as NODE_EXTRA_CA_CERTS is of every Toolscope run: this environment's imports
 * certifi (to add a proxy's certificate), ~45 ms of CPU per start measured, which a typical machine does not pay. The
 * Python is the harness's: PYTHON, else python3 resolved to its executable.
 */
export function pythonStartNote(env: NodeJS.ProcessEnv = process.env): string {
  const which = spawnSync(env.PYTHON ?? 'python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', env });
  const python = which.status === 0 ? which.stdout.trim() : '';
  if (!python) return "the harness's Python start not measured (no python3)";
  const startMs = (args: string[]) => {
    let best = Infinity;
    for (let i = 0; i < PYTHON_START_RUNS; i++) {
      const t = performance.now();
      if (spawnSync(python, args, { env }).status !== 0) return NaN;
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  const full = startMs(['-c', 'pass']);
  const bare = startMs(['-S', '-c', 'pass']);
  return `python -c pass ${full.toFixed(0)} ms (${bare.toFixed(0)} ms with -S: site's share ${(full - bare).toFixed(0)} ms, paid by every vLLM run)`;
}

const PYTHON_START_RUNS = 7;

/** Why the harness gave no figures, from its exit code (its README: 2 no clone, 3 no suitable Python, 1 check failed). */
function whyNot(code: number | null, stderr: string): string {
  const said = stderr.trim().split('\n').slice(0, 12).join('\n    ');
  if (code === 2) return `no vLLM clone holding the harness's commits was found, so no ratio is printed. The harness said:\n    ${said}`;
  if (code === 3) return `the harness's Python lacks regex or pydantic v2, so no ratio is printed. The harness said:\n    ${said}`;
  return `the harness failed (exit ${code ?? 'signal'}), so no ratio is printed:\n    ${said}`;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * The conditions the pairs are run under: as this environment is, and, when it sets NODE_EXTRA_CA_CERTS (which Node 20
 * reads and parses at every process start, ~50 ms of a short run here, nothing of vLLM's Python), once more with it
 * unset for both sides, as on a typical machine. Both are printed, each named; the first is never dropped.
 */
export function sideBySideConditions(env: NodeJS.ProcessEnv = process.env): { label: string; env: NodeJS.ProcessEnv }[] {
  if (!env.NODE_EXTRA_CA_CERTS) return [{ label: 'NODE_EXTRA_CA_CERTS not set', env }];
  const without = { ...env };
  delete without.NODE_EXTRA_CA_CERTS;
  return [
    { label: 'NODE_EXTRA_CA_CERTS set, as in this environment (Node parses it at every start)', env },
    { label: 'NODE_EXTRA_CA_CERTS unset for both sides, as on a typical machine', env: without },
  ];
}

/**
 * Runs the harness with `analyze {}` (default options, the what-if included) as the other command and logs each
 * input's medians and the median of the paired ratios, with the conditions they were taken under, once per
 * condition (sideBySideConditions). `nodeStart` says what `node -e 0` takes under an environment (processBench's
 * nodeStartNote), or is that text already.
 */
export function benchBesideVllm(
  log: (line: string) => void,
  cli: string,
  cacheDir: string,
  nodeStart: string | ((env: NodeJS.ProcessEnv) => string),
): void {
  const harness = process.env.TOOLSCOPE_VLLM_HARNESS ?? join(__dirname, '..', '..', 'shared', 'tools', 'vllm-harness');
  const script = join(harness, 'side_by_side.sh');
  const pairs = Math.max(MIN_PAIRS, Number(process.env.TOOLSCOPE_BENCH_VLLM_PAIRS ?? 9) || 9);
  log(`Side by side with vLLM's own Kimi K2 parser (gen C, vLLM b8fb56d), whole processes alternated run by run`);
  if (!existsSync(script)) {
    log(`  the vLLM harness is not here (${script}; TOOLSCOPE_VLLM_HARNESS names another folder), so no ratio is printed`);
    return;
  }
  for (const { label, env } of sideBySideConditions()) {
    log(`  ${label}:`);
    if (!runHarness(log, script, cli, cacheDir, pairs, env, typeof nodeStart === 'string' ? nodeStart : nodeStart(env))) return;
  }
}

/** One run of the harness under `env`, its table logged; false when it gave no figures (said why). */
function runHarness(
  log: (line: string) => void,
  script: string,
  cli: string,
  cacheDir: string,
  pairs: number,
  env: NodeJS.ProcessEnv,
  nodeStart: string,
): boolean {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const other = `XDG_CACHE_HOME=${quote(cacheDir)} ${quote(process.execPath)} ${quote(cli)} analyze {}`;
  const pythonStart = pythonStartNote(env);
  const before = load();
  const r = spawnSync('bash', [script], {
    encoding: 'utf8',
    env: { ...env, OTHER_CMD: other, PAIRS: String(pairs), INPUTS: INPUTS.join(' ') },
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rows = r.status === 0 ? parseSideBySide(r.stdout) : [];
  if (rows.length === 0) {
    const why =
      r.status === 0 ? `the harness printed no result line, so no ratio is printed:\n    ${r.stdout.trim()}` : whyNot(r.status, r.stderr);
    log(`  ${why}`);
    return false;
  }
  log(
    `  toolscope analyze FILE (default options, what-if included) against the harness's gen C run; ${pairs} pairs per input; ` +
      `load average ${before} before, ${load()} after; ${nodeStart}; ${pythonStart}`,
  );
  log('  input       vLLM C min / median   toolscope min / median   ratio (median of the pairs' + "'" + ' vLLM C ÷ toolscope)');
  const s = (x: number) => `${(x * 1000).toFixed(0)} ms`;
  for (const row of rows) {
    const goal = GOALS[row.input];
    const verdict = goal === undefined ? '' : row.ratioMedian >= goal ? `  goal ≥ ${goal}× ok` : `  goal ≥ ${goal}× BELOW`;
    log(
      `  ${row.input.padEnd(10)} ${`${s(row.vllmMin)} / ${s(row.vllmMedian)}`.padStart(20)} ${`${s(row.otherMin)} / ${s(row.otherMedian)}`.padStart(24)}   ${`${row.ratioMedian.toFixed(2)}×`.padStart(7)}${verdict}`,
    );
  }
  return true;
}
