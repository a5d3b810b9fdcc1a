/**
 * `--vllm-profile` on the command line: `analyze --json` adds the `vllm` block and vllm-divergence findings,
 * the readable report shows the profile's answer, and `serve --vllm-profile` makes the embedded endpoint parse
 * the way that vLLM generation does (checked over loopback against the reference parser's answer).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../src/net/server/openAiServer.ts';
import { accumulate } from '../../src/core/trace/deltaAccumulator.ts';
import type { ParserDelta } from '../../src/core/formats/toolCallFormat.ts';
import type { TraceRecord } from '../../src/core/trace/record.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');

const S = '<|tool_calls_section_begin|>';
const E = '<|tool_calls_section_end|>';
const B = '<|tool_call_begin|>';
const A = '<|tool_call_argument_begin|>';
const C = '<|tool_call_end|>';

const ARGS = '{"city": "Paris",\n "unit": "celsius"}';
const record: TraceRecord = {
  toolscope: 1,
  id: 'nl',
  request: {
    model: 'kimi-k2',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
        },
      },
    ],
  },
  completion: { text: `Checking. ${S}${B}functions.get_weather:0${A}${ARGS}${C}${E}` },
};

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function withTrace(lines: unknown[], fn: (path: string) => void | Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-vllm-cli-'));
  try {
    const path = join(dir, 'trace.jsonl');
    await writeFile(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('analyze --vllm-profile A --json: the vllm block per record and vllm-divergence findings with a detail', async () => {
  const plain = { toolscope: 1, id: 'no-completion', response: { choices: [{ message: { role: 'assistant', content: 'hi' } }] } };
  await withTrace([record, plain], (path) => {
    const r = run(['analyze', path, '--json', '--no-guided', '--vllm-profile', 'A']);
    assert.equal(r.status, 0, r.stderr);
    const [row, other] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(row && other);
    assert.deepEqual(Object.keys(row), [
      'file',
      'id',
      'line',
      'lastLine',
      'format',
      'content',
      'reasoning',
      'calls',
      'diagnostics',
      'vllm',
    ]);
    const vllm = row.vllm as {
      profile: string;
      grouping: unknown;
      content: string;
      calls: Array<{ arguments: string }>;
      deltas: unknown[];
    };
    assert.deepEqual(Object.keys(vllm), ['profile', 'grouping', 'content', 'calls', 'deltas']);
    assert.equal(vllm.profile, 'A');
    assert.deepEqual(vllm.grouping, { kind: 'tokens', perDelta: 1 });
    assert.equal(vllm.content, 'Checking. ');
    assert.equal(vllm.calls[0]?.arguments, '{"city": "Paris",');
    assert.ok(vllm.deltas.includes(null));
    assert.ok(vllm.deltas.some((d) => d !== null && typeof d === 'object' && 'tool_calls' in d));
    const diags = row.diagnostics as Array<Record<string, unknown>>;
    const div = diags.filter((d) => d.kind === 'vllm-divergence');
    assert.deepEqual(
      div.map((d) => [d.code, d.detail, d.where, d.callIndex]),
      [['TS026', 'arguments-truncated', 'response', 0]],
    );
    assert.equal(other.vllm, null, 'no raw completion: null');
    // Several tokens per delta: the deltas follow.
    const grouped = JSON.parse(
      run(['analyze', path, '--json', '--no-guided', '--vllm-profile', 'C', '--delta-tokens', '4']).stdout.split('\n')[0] as string,
    ) as { vllm: { grouping: unknown; deltas: unknown[]; calls: Array<{ arguments: string }> } };
    assert.deepEqual(grouped.vllm.grouping, { kind: 'tokens', perDelta: 4 });
    assert.equal(grouped.vllm.calls[0]?.arguments, ARGS);
    assert.ok(grouped.vllm.deltas.length < vllm.deltas.length / 2);
    // Without the option the contract is unchanged.
    const without = JSON.parse(run(['analyze', path, '--json', '--no-guided']).stdout.split('\n')[0] as string) as Record<string, unknown>;
    assert.equal('vllm' in without, false);
  });
});

test('analyze --vllm-profile: the readable report shows the profile and its divergences', async () => {
  await withTrace([record], (path) => {
    const r = run(['analyze', path, '--no-guided', '--vllm-profile', 'A', '--delta-tokens', '2']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /vllm A +\d+ deltas, 2 tokens per delta: content "Checking\.", functions\.get_weather:0 → get_weather/);
    assert.match(
      r.stdout,
      /error +TS026 vllm-divergence\/arguments-truncated \(tokens \d+–\d+\): arguments of call "functions\.get_weather:0" would have lost 18 of 37 characters: "\{\\"city\\": \\"Paris\\",\\"\}"/,
    );
    const same = run(['analyze', path, '--no-guided', '--vllm-profile', 'B']);
    assert.match(same.stdout, /vllm B .*\(same as the reference parse\)/);
  });
});

test('--vllm-profile / --delta-tokens usage errors exit 2', async () => {
  await withTrace([record], (path) => {
    assert.equal(run(['analyze', path, '--vllm-profile', 'D']).status, 2);
    const zero = run(['analyze', path, '--vllm-profile', 'A', '--delta-tokens', '0']);
    assert.equal(zero.status, 2);
    assert.match(zero.stderr, /--delta-tokens takes a whole number/);
    const alone = run(['analyze', path, '--delta-tokens', '2']);
    assert.equal(alone.status, 2);
    assert.match(alone.stderr, /--delta-tokens needs --vllm-profile/);
    const parserAlone = run(['analyze', path, '--vllm-reasoning-parser', 'off']);
    assert.equal(parserAlone.status, 2);
    assert.match(parserAlone.stderr, /--vllm-reasoning-parser needs --vllm-profile/);
  });
});

test("analyze --vllm-profile C --vllm-reasoning-parser off --json: the think text reaches the profile's content", async () => {
  const thinking: TraceRecord = {
    ...record,
    id: 'think',
    completion: { text: `<think>Paris, so weather.</think>${record.completion?.text ?? ''}` },
  };
  await withTrace([thinking], (path) => {
    const on = JSON.parse(run(['analyze', path, '--json', '--no-guided', '--vllm-profile', 'C']).stdout) as {
      vllm: { content: string | null };
    };
    const off = JSON.parse(
      run(['analyze', path, '--json', '--no-guided', '--vllm-profile', 'C', '--vllm-reasoning-parser', 'off']).stdout,
    ) as { vllm: { content: string | null } };
    assert.equal(on.vllm.content, 'Checking. ');
    assert.match(off.vllm.content ?? '', /^Paris, so weather\.|<think>Paris, so weather\./u);
  });
});

async function chat(
  url: string,
  stream: boolean,
): Promise<{ content: string | null; calls: Array<{ id: string | null; name: string | null; arguments: string }>; chunks: number }> {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...record.request, stream }),
  });
  assert.equal(res.status, 200);
  if (!stream) {
    const body = (await res.json()) as {
      choices: Array<{
        message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
      }>;
    };
    const m = body.choices[0]?.message;
    return {
      content: m?.content ?? null,
      calls: (m?.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
      chunks: 0,
    };
  }
  const text = await res.text();
  const deltas = text
    .split('\n\n')
    .map((e) => e.replace(/^data: /, ''))
    .filter((d) => d.startsWith('{'))
    .map((d) => (JSON.parse(d) as { choices: Array<{ delta: ParserDelta }> }).choices[0]?.delta ?? null);
  const m = accumulate(deltas);
  return { content: m.content, calls: m.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })), chunks: deltas.length };
}

test('the embedded endpoint with a vLLM profile streams what that generation sent (loopback)', async () => {
  const reference = await startServer({ script: [record] });
  const genA = await startServer({ script: [record], vllmProfile: 'A' });
  const genC = await startServer({ script: [record], vllmProfile: 'C' });
  try {
    const ref = await chat(reference.url, true);
    assert.deepEqual(ref.calls, [{ id: 'functions.get_weather:0', name: 'get_weather', arguments: ARGS }]);
    // Generation A: the streamed arguments stop at the newline — the bug reproduced for a real client.
    const a = await chat(genA.url, true);
    assert.equal(a.content, 'Checking. ');
    assert.deepEqual(a.calls, [{ id: 'functions.get_weather:0', name: 'get_weather', arguments: '{"city": "Paris",' }]);
    // Non-streaming A uses the DOTALL regex: whole arguments.
    assert.equal((await chat(genA.url, false)).calls[0]?.arguments, ARGS);
    const c = await chat(genC.url, true);
    assert.deepEqual(c.calls, ref.calls);
  } finally {
    await Promise.all([reference.close(), genA.close(), genC.close()]);
  }
});

test('serve --vllm-profile B: dotted names lose their prefix, as generation B did', async () => {
  const dotted: TraceRecord = { ...record, id: 'dotted', completion: { text: `${S}${B}functions.web.search:0${A}{"q": "x"}${C}${E}` } };
  await withTrace([dotted], async (path) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', '0', '--script', path, '--vllm-profile', 'B'], {
      cwd: repo,
    });
    try {
      const lines = createInterface({ input: child.stdout });
      const seen: string[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        lines.on('line', (line) => {
          seen.push(line);
          const m = /^Listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line);
          if (m) resolve(m[1] as string);
        });
        child.once('error', reject);
        setTimeout(() => reject(new Error('no URL within 15 s')), 15_000);
      });
      const streamed = await chat(url, true);
      assert.deepEqual(streamed.calls, [{ id: 'functions.web.search:0', name: 'search', arguments: '{"q": "x"}' }]);
      assert.equal((await chat(url, false)).calls[0]?.name, 'search');
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(
        seen.some((l) => /vLLM generation B's Kimi K2 parser/.test(l)),
        seen.join('\n'),
      );
    } finally {
      child.kill('SIGTERM');
    }
  });
});
