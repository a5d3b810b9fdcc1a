/**
 * Peak memory of analysing one huge completion (10, 25 and 50 MB of Kimi K2 text ending in a call), each in its own
 * child process so the figure is that record's alone: `process.resourceUsage().maxRSS` after reading the trace,
 * analysing the record with the guided what-if and building its record view, as the trace editor does. Above the
 * size limit (default 4 MB) the record gets record-too-large and a coarse split; the goal is under 1.5 GB at 50 MB.
 * Also 200 MB (no goal: it must finish with a finding, not run out of memory), 1e6 special tokens in one 28 MB
 * completion, and one 10 MB run analysed in full (limit raised) to show what the limit saves.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../src/core/analysis.ts';
import { readTraceItems } from '../src/io/trace/traceIndex.ts';
import { recordView } from '../src/host/view/recordView.ts';
import { nodeServices } from '../src/io/nodeServices.ts';

export const MEMORY_CHILD_FLAG = '--memory-child';

const PROSE = 'The forecast for Paris: light rain in the morning, 14 °C, clearing by noon; "umbrella" advised.\n';

const CALL =
  '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>';

/** `mb` MB of prose ending in a call; with `specials`, that many special tokens instead (28 bytes each). */
function hugeRecord(mb: number, specials = 0): string {
  const text = specials ? '<|tool_calls_section_begin|>'.repeat(specials) : `${PROSE.repeat(Math.ceil((mb * 1e6) / PROSE.length))}${CALL}`;
  const tools = [
    {
      type: 'function',
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  ];
  return (
    JSON.stringify({
      toolscope: 1,
      id: `huge-${mb}mb`,
      request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'Weather?' }], tools },
      completion: { text, finish_reason: 'tool_calls' },
    }) + '\n'
  );
}

/** The child: analyse every record of the file, build its view, print the figures as one JSON line. */
export async function memoryChild(path: string, maxCompletionMB: number | undefined): Promise<void> {
  const started = performance.now();
  const analyzer = new Analyzer(maxCompletionMB ? { maxCompletionMB } : {}, nodeServices());
  let kinds: string[] = [];
  let tokens = 0;
  let findings = 0;
  for await (const item of readTraceItems(path)) {
    if (item.kind !== 'record') continue;
    const a = await analyzer.analyzeWithGuided(item.loaded);
    tokens = recordView('0:0', a, item.loaded.record).tokens.length;
    // Distinct kinds only: 1e6 stray markers are 1e6 findings.
    findings = a.diagnostics.length;
    kinds = [...new Set(a.diagnostics.map((d) => d.kind))];
  }
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ maxRssMB, seconds: (performance.now() - started) / 1000, tokens, kinds, findings }) + '\n');
}

export async function benchMemory(log: (line: string) => void): Promise<void> {
  log('huge completions (each in a child process: read, analyse with the what-if, build the record view)');
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-bench-mem-'));
  try {
    const cases: Array<{ mb: number; limit?: number; specials?: number }> = [
      { mb: 10 },
      { mb: 25 },
      { mb: 50 },
      { mb: 200 },
      { mb: 28, specials: 1e6 },
      { mb: 10, limit: 100 },
    ];
    for (const { mb, limit, specials } of cases) {
      const path = join(dir, `huge-${mb}.jsonl`);
      await writeFile(path, hugeRecord(mb, specials));
      const args = [process.argv[1] ?? '', MEMORY_CHILD_FLAG, path, ...(limit ? [String(limit)] : [])];
      const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
      const what = specials ? `1e6 special tokens (${mb} MB)` : `${mb} MB completion`;
      const label = `  ${what.padStart(6)}${limit ? ` analysed in full (--max-completion-mb ${limit})` : ''}`;
      const line = child.stdout.trim().split('\n').at(-1) ?? '';
      if (child.status !== 0 || !line.startsWith('{')) {
        log(`${label}: FAILED (exit ${child.status ?? child.signal}) ${child.stderr.trim().split('\n').at(-1) ?? ''}`);
        continue;
      }
      const r = JSON.parse(line) as { maxRssMB: number; seconds: number; tokens: number; kinds: string[]; findings: number };
      const goal = !limit && mb <= 50 ? (r.maxRssMB < 1536 ? ' (goal < 1.5 GB: ok)' : ' (goal < 1.5 GB: OVER)') : '';
      log(
        `${label}: peak RSS ${r.maxRssMB.toFixed(0)} MB${goal}, ${r.seconds.toFixed(1)} s, ${r.tokens} tokens in the view, ${r.findings} findings${r.kinds.includes('record-too-large') ? ' (record-too-large among them)' : ''}`,
      );
      await rm(path, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
