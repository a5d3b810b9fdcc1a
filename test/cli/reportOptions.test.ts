/**
 * `report` takes the analysis options `analyze` takes (one declaration in src/cli/main.ts): --fail-on, -v,
 * --no-guided, --recover-raw-fallback. Runs the built CLI (npm test builds first), since the report embeds the
 * webview bundle that sits beside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltCli } from './builtCli.ts';

const run = runBuiltCli;

const S = '<|tool_calls_section_begin|>';
const tools = [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }];
const good = {
  toolscope: 1,
  id: 'ok',
  request: { tools },
  completion: {
    text: `${S}<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"q":"x"}<|tool_call_end|><|tool_calls_section_end|>`,
  },
};
const unknown = { ...good, id: 'unknown-tool', completion: { text: good.completion.text.replace('functions.search', 'functions.nope') } };
const rawFallback = { toolscope: 1, id: 'raw', request: { tools }, completion: { text: 'Calling it: functions.search:0 {"q": "y"}' } };

async function withTrace(records: object[], body: (trace: string, out: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-report-'));
  try {
    const trace = join(dir, 't.jsonl');
    await writeFile(trace, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await body(trace, join(dir, 'r.html'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('report --fail-on: exit 1 when a finding of that severity exists, after the report is written; 0 when none', async () => {
  await withTrace([good, unknown], async (trace, out) => {
    const failing = run(['report', trace, '-o', out, '--fail-on', 'error']);
    assert.equal(failing.status, 1, failing.stderr);
    assert.ok((await readFile(out, 'utf8')).includes('unknown-tool'), 'the report is written before the exit status is set');
    assert.equal(run(['report', trace, '-o', out]).status, 0);
  });
  await withTrace([good], async (trace, out) => assert.equal(run(['report', trace, '-o', out, '--fail-on', 'warning']).status, 0));
  await withTrace([good], async (trace, out) =>
    assert.equal(run(['report', trace, '-o', out, '--fail-on', 'fatal']).status, 2, 'an unknown severity is a usage error (exit 2)'),
  );
});

test('report prints the findings by severity; -v adds info and a line per record with findings', async () => {
  await withTrace([good, unknown], async (trace, out) => {
    const plain = run(['report', trace, '-o', out]);
    assert.match(plain.stdout, /^Findings: 1 error, \d+ warnings?$/m);
    assert.doesNotMatch(plain.stdout, /unknown-tool:/);
    const verbose = run(['report', trace, '-o', out, '-v']);
    assert.match(verbose.stdout, /^Findings: 1 error, \d+ warnings?, \d+ info findings?$/m);
    assert.match(verbose.stdout, /line 2 unknown-tool: 1 error.*\(.*unknown-tool.*\)/);
  });
});

test('report --recover-raw-fallback and --no-guided reach the analysis', async () => {
  await withTrace([rawFallback, good], async (trace, out) => {
    run(['report', trace, '-o', out]);
    const without = await readFile(out, 'utf8');
    run(['report', trace, '-o', out, '--recover-raw-fallback']);
    const withFallback = await readFile(out, 'utf8');
    assert.notEqual(without, withFallback, 'the recovered call changes what the report holds');
    assert.match(withFallback, /raw-fallback/);
  });
  await withTrace([unknown], async (trace, out) => {
    assert.match(run(['report', trace, '-o', out, '-v']).stdout, /guided-would-block/);
    const noGuided = run(['report', trace, '-o', out, '-v', '--no-guided']);
    assert.doesNotMatch(noGuided.stdout, /guided-/);
  });
});
