/** `toolscope tokens`: each record's tokens with their ids and where they come from, as JSON Lines or a table. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encode as referenceEncode } from 'gpt-tokenizer/encoding/o200k_harmony';
import { writeKimiFolder, FIRST_SPECIAL } from '../core/tokens/tokenizerFiles.ts';

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

const HARMONY =
  '<|channel|>analysis<|message|>Need weather for 東京 🌧️.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "東京",   "unit": "c"}<|call|>';

/** gpt-tokenizer's o200k_harmony, with each special encoded on its own (it only sees specials at the start). */
function reference(text: string): number[] {
  return text
    .split(/(<\|[a-z]+\|>)/u)
    .filter((s) => s !== '')
    .flatMap((s) => referenceEncode(s, /^<\|[a-z]+\|>$/u.test(s) ? { allowedSpecial: 'all' } : {}));
}

test('tokens --json on a Harmony record: exactly o200k_harmony ids, exact, re-encoded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-tokens-'));
  const trace = join(dir, 'trace.jsonl');
  writeFileSync(
    trace,
    [
      JSON.stringify({ toolscope: 1, id: 'gpt-oss', meta: { model: 'openai/gpt-oss-120b' }, completion: { text: HARMONY } }),
      'not json',
      JSON.stringify({ toolscope: 1, id: 'kimi', completion: { text: 'hello world' } }),
    ].join('\n') + '\n',
  );
  const r = run(['tokens', trace, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const harmony = lines[0];
  assert.deepEqual(Object.keys(harmony), ['id', 'line', 'tokenizer', 'source', 'exact', 'tokens']);
  assert.equal(harmony.id, 'gpt-oss');
  assert.equal(harmony.line, 1);
  assert.equal(harmony.tokenizer, 'o200k_harmony');
  assert.equal(harmony.source, 're-encoded');
  assert.equal(harmony.exact, true);
  assert.deepEqual(
    harmony.tokens.map((t: { id: number }) => t.id),
    reference(HARMONY),
  );
  assert.equal(harmony.tokens.map((t: { text: string }) => t.text).join(''), HARMONY);
  // The unreadable line is reported with its number; the Kimi record without a tokenizer is approximate.
  assert.equal(lines[1].line, 2);
  assert.equal(lines[2].source, 'approximate');
  assert.equal(lines[2].exact, false);
  assert.match(lines[2].note, /set toolscope\.tokenizer/u);
});

test('tokens --tokenizer FOLDER: a Kimi record gets its tiktoken ids; the table names the source; a missing path is a usage error', () => {
  const folder = writeKimiFolder(join(mkdtempSync(join(tmpdir(), 'toolscope-tokens-')), 'Kimi-K2-Instruct'));
  const trace = join(folder, '..', 'trace.jsonl');
  writeFileSync(
    trace,
    JSON.stringify({ toolscope: 1, id: 'kimi', completion: { text: 'hello world<|tool_calls_section_begin|>' } }) + '\n',
  );
  const json = JSON.parse(run(['tokens', trace, '--json', '--tokenizer', folder]).stdout);
  assert.equal(json.tokenizer, 'tiktoken.model (Kimi-K2-Instruct)');
  assert.deepEqual(
    json.tokens.map((t: { id: number }) => t.id),
    [259, 264, FIRST_SPECIAL + 1],
  );
  const table = run(['tokens', trace, '--tokenizer', folder]);
  assert.match(table.stdout, /tokens: tiktoken\.model \(Kimi-K2-Instruct\) \(exact, re-encoded/u);
  assert.match(table.stdout, /\s259\s+"hello"/u);
  const missing = run(['tokens', trace, '--tokenizer', join(folder, 'nope')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--tokenizer: no such file or directory/u);
});
