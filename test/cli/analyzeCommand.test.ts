import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeServices } from '../../src/io/nodeServices.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const S = '<|tool_calls_section_begin|>';
const good = {
  toolscope: 1,
  id: 'ok',
  request: {
    tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
  },
  completion: {
    text: `${S}<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"q":"x"}<|tool_call_end|><|tool_calls_section_end|>`,
  },
};
const bad = {
  ...good,
  id: 'bad',
  completion: {
    text: `${S}<|tool_call_begin|>functions.nope:0<|tool_call_argument_begin|>{"q":"x"}<|tool_call_end|><|tool_calls_section_end|>`,
  },
};

async function withTrace(lines: string[], fn: (path: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-cli-'));
  try {
    const path = join(dir, 'trace.jsonl');
    await writeFile(path, lines.join('\n') + '\n');
    fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('analyze --json: one object per record and per unreadable line, with the contract keys', async () => {
  await withTrace([JSON.stringify(good), '{oops', JSON.stringify(bad)], (path) => {
    const r = run(['analyze', path, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(rows.length, 3);
    assert.deepEqual(Object.keys(rows[0] ?? {}), [
      'file',
      'id',
      'line',
      'lastLine',
      'format',
      'content',
      'reasoning',
      'calls',
      'diagnostics',
    ]);
    assert.deepEqual(rows[1], { file: path, line: 2, error: rows[1]?.error });
    assert.match(String(rows[1]?.error), /invalid JSON/);
    const diags = rows[2]?.diagnostics as Array<Record<string, unknown>>;
    assert.equal(diags[0]?.kind, 'unknown-tool');
    assert.equal(diags[0]?.code, 'TS003');
    for (const key of ['severity', 'message', 'hint', 'where', 'tokenStart', 'tokenEnd', 'charStart', 'charEnd'])
      assert.ok(key in (diags[0] ?? {}), key);
  });
});

test('analyze: exit 1 with --fail-on when the severity is found, 0 otherwise', async () => {
  await withTrace([JSON.stringify(good), JSON.stringify(bad)], (path) => {
    assert.equal(run(['analyze', path, '--fail-on', 'error']).status, 1);
    assert.equal(run(['analyze', path]).status, 0);
  });
  await withTrace([JSON.stringify(good)], (path) => {
    assert.equal(run(['analyze', path, '--fail-on', 'warning']).status, 0);
  });
});

test('analyze: usage errors and unreadable paths exit 2 with a message', () => {
  const missing = run(['analyze', '/no/such/trace.jsonl']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no such file or directory: \/no\/such\/trace.jsonl/);
  assert.equal(run(['analyze']).status, 2);
  assert.equal(run(['analyze', 'x', '--fail-on', 'sometimes']).status, 2);
  assert.equal(run(['frobnicate']).status, 2);
  assert.equal(run(['--help']).status, 0);
});

test('analyze: the readable summary names records, calls and findings with token positions', async () => {
  await withTrace([JSON.stringify(good), JSON.stringify(bad)], (path) => {
    const r = run(['analyze', path]);
    assert.match(r.stdout, /#ok line 1/);
    assert.match(r.stdout, /call {6}functions\.search:0 → search/);
    assert.match(r.stdout, /error {3}TS003 unknown-tool \(tokens? \d+/);
    assert.match(r.stdout, /2 records, 0 unreadable lines; 1 errors/);
    assert.ok(!r.stdout.includes('\u001b['), 'no colours when not a TTY');
  });
});

test('analyze -: reads the trace from standard input, reported as file "-"', () => {
  const sse = [
    'event: message_start',
    `data: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'kimi-k2' } })}`,
    '',
    'event: content_block_delta',
    `data: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })}`,
    '',
    'event: message_stop',
    `data: ${JSON.stringify({ type: 'message_stop' })}`,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, 'analyze', '-', '--json'], {
    cwd: repo,
    encoding: 'utf8',
    input: `${JSON.stringify(good)}\n${sse}\n`,
  });
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    rows.map((row) => [row.file, row.id, row.line, row.lastLine, row.content]),
    [
      ['-', 'ok', 1, 1, null],
      ['-', 'msg_1', 2, 9, 'Hi'],
    ],
  );
  const empty = spawnSync(process.execPath, ['--import', 'tsx', cli, 'analyze', '-'], { cwd: repo, encoding: 'utf8', input: '' });
  assert.equal(empty.status, 0, empty.stderr);
  assert.match(empty.stdout, /0 records/);
});

test('analyze DIR takes every trace extension (.jsonl .json .ndjson .sse .log .txt), recursively and sorted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-cli-dir-'));
  try {
    const names = ['a.jsonl', 'b.json', 'c.ndjson', 'd.sse', 'e.log', 'f.txt', 'g.md', 'h.png'];
    for (const [i, name] of names.entries()) await writeFile(join(dir, name), JSON.stringify({ ...good, id: `r${i}` }) + '\n');
    const r = run(['analyze', dir, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; id: string });
    assert.deepEqual(
      rows.map((row) => row.id),
      ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('analyze: type-confused records and an unreadable file in a directory: exit 0 for content, 2 for the path, later files still analysed', async () => {
  const { analyzeCommand } = await import('../../src/cli/analyzeCommand.ts');
  const { symlink, mkdir } = await import('node:fs/promises');
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-cli-'));
  try {
    const confused = [
      { ...good, id: 'tokens-null', completion: { ...good.completion, tokens: [null] } },
      { ...good, id: 'tools-x', request: { tools: 'x' } },
      { ...good, id: 'response-null', response: [null] },
      { ...good, id: 'choices-x', response: { choices: 'x' } },
      { ...good, id: 'ids', completion: { text: 'hi', tokens: [{ text: 'hi', id: -1 }] } },
    ];
    await writeFile(join(dir, 'a.jsonl'), confused.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await mkdir(join(dir, 'b'));
    await symlink(join(dir, 'missing'), join(dir, 'b', 'dangling.jsonl'));
    await writeFile(join(dir, 'c.jsonl'), JSON.stringify(good) + '\n');
    const chunks: string[] = [];
    const errors: string[] = [];
    const sink = (into: string[]) => ({ write: (s: string) => (into.push(s), true) }) as unknown as NodeJS.WritableStream;
    const status = await analyzeCommand([dir], { json: true, guided: false }, sink(chunks), process.stdin, sink(errors));
    assert.equal(status, 2);
    assert.match(errors.join(''), /cannot read .*dangling\.jsonl/);
    const rows = chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; id?: string; line: number; error?: string; diagnostics?: Array<{ kind: string }> });
    assert.deepEqual(
      rows.map((r) => [r.file.slice(dir.length + 1), r.line, r.id ?? 'error']),
      [
        ['a.jsonl', 1, 'tokens-null'],
        ['a.jsonl', 2, 'error'],
        ['a.jsonl', 3, 'error'],
        ['a.jsonl', 4, 'error'],
        ['a.jsonl', 5, 'ids'],
        ['c.jsonl', 1, 'ok'],
      ],
    );
    assert.ok(rows[0]?.diagnostics?.some((d) => d.kind === 'recorded-tokens-invalid'));
    assert.ok(rows[4]?.diagnostics?.some((d) => d.kind === 'recorded-tokens-invalid'));
    // Without the unreadable path, content problems alone exit 0.
    assert.equal(await analyzeCommand([join(dir, 'a.jsonl')], { json: true, guided: false }, sink([]), process.stdin, sink([])), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an internal error while analysing one record is an error on its line; the next record is analysed', async () => {
  const { Analyzer } = await import('../../src/core/analysis.ts');
  const analyzer = new Analyzer({}, nodeServices());
  const original = analyzer.analyze.bind(analyzer);
  analyzer.analyze = (loaded) => {
    if (loaded.record.id === 'boom') throw new TypeError('x is not a function');
    return original(loaded);
  };
  const at = (id: string, line: number) => ({ record: { ...good, id } as never, line, lastLine: line, source: 'native' as const });
  const first = await analyzer.analyzeGuarded(at('boom', 3), false);
  assert.equal(first.kind, 'error');
  assert.match(
    first.kind === 'error' ? first.error.message : '',
    /^line 3: record "boom" could not be analysed \(TypeError: x is not a function\)/,
  );
  const second = await analyzer.analyzeGuarded(at('fine', 4));
  assert.equal(second.kind, 'record');
});

test('when only the guided what-if fails on a record, the record is kept with its other findings', async () => {
  const { Analyzer } = await import('../../src/core/analysis.ts');
  const analyzer = new Analyzer({}, nodeServices());
  analyzer.analyzeWithGuided = () => Promise.reject(new RangeError('Maximum call stack size exceeded'));
  const outcome = await analyzer.analyzeGuarded({ record: { ...bad } as never, line: 2, lastLine: 2, source: 'native' });
  assert.equal(outcome.kind, 'record');
  assert.ok(outcome.kind === 'record' && outcome.analysed.diagnostics.some((d) => d.kind === 'unknown-tool'));
});
