import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchBesideVllm, parseSideBySide, pythonStartNote, sideBySideConditions } from '../../bench/vllmSideBySide.ts';

test('the harness result lines are read field by field; its comment lines are not', () => {
  const out = [
    '# side by side, 9 alternated pairs per input; load average 2.01 1.90 1.80 at start',
    'input=calls20 vllm_c_min=0.2410 vllm_c_median=0.2500 other_min=0.1200 other_median=0.1300 ratio_median=1.9200',
    'input=calls1000 vllm_c_min=1.5500 vllm_c_median=1.6000 other_min=0.1500 other_median=0.1600 ratio_median=10.1000',
  ].join('\n');
  assert.deepEqual(parseSideBySide(out), [
    { input: 'calls20', vllmMin: 0.241, vllmMedian: 0.25, otherMin: 0.12, otherMedian: 0.13, ratioMedian: 1.92 },
    { input: 'calls1000', vllmMin: 1.55, vllmMedian: 1.6, otherMin: 0.15, otherMedian: 0.16, ratioMedian: 10.1 },
  ]);
});

test('a result line with a field missing or not a number gives no row', () => {
  assert.deepEqual(parseSideBySide('input=calls20 vllm_c_min=0.2 vllm_c_median=0.2 other_min=x other_median=0.1 ratio_median=2'), []);
  assert.deepEqual(parseSideBySide('input=calls20 vllm_c_min=0.2'), []);
});

test('without the harness the bench says so and prints no ratio', () => {
  const lines: string[] = [];
  const before = process.env.TOOLSCOPE_VLLM_HARNESS;
  process.env.TOOLSCOPE_VLLM_HARNESS = '/nonexistent/vllm-harness';
  try {
    benchBesideVllm((l) => lines.push(l), 'cli.js', '/tmp', 'node -e 0 50 ms');
  } finally {
    if (before === undefined) delete process.env.TOOLSCOPE_VLLM_HARNESS;
    else process.env.TOOLSCOPE_VLLM_HARNESS = before;
  }
  const text = lines.join('\n');
  assert.match(text, /no ratio is printed/);
  assert.doesNotMatch(text, /×/);
});

test('with NODE_EXTRA_CA_CERTS set the pairs run twice, as set and with it unset for both sides, each named', () => {
  const set = sideBySideConditions({ PATH: '/usr/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' });
  assert.equal(set.length, 2);
  assert.match(set[0]?.label ?? '', /NODE_EXTRA_CA_CERTS set/);
  assert.equal(set[0]?.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt');
  assert.match(set[1]?.label ?? '', /unset for both sides/);
  assert.deepEqual(set[1]?.env, { PATH: '/usr/bin' });
  const unset = sideBySideConditions({ PATH: '/usr/bin' });
  assert.deepEqual(
    unset.map((c) => c.label),
    ['NODE_EXTRA_CA_CERTS not set'],
  );
});

test("the Python start of vLLM's side is printed with site's share, or said to be unmeasured without a Python", () => {
  assert.match(pythonStartNote({ ...process.env, PYTHON: '/nonexistent/python3' }), /Python start not measured/);
  // A stand-in interpreter: it names itself when asked for sys.executable, as the harness resolves the Python.
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-python-'));
  try {
    const python = join(dir, 'python3');
    writeFileSync(python, '#!/bin/sh\ncase "$*" in *sys.executable*) echo "$0";; esac\nexit 0\n', { mode: 0o755 });
    assert.match(pythonStartNote({ ...process.env, PYTHON: python }), /^python -c pass \d+ ms \(\d+ ms with -S: site's share -?\d+ ms/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
