/**
 * docs/capturing-traces.md kept true: its shell blocks, run in order in a scratch folder against the embedded
 * endpoint (with `node dist/cli.js` run from source), succeed and produce what the page says they do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(join(repo, 'docs/capturing-traces.md'), 'utf8');
const hasCurl = spawnSync('curl', ['--version']).status === 0;

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gmu)].map((m) => m[1] as string);
}

test(
  'docs/capturing-traces.md: every shell example runs against the embedded endpoint',
  { skip: hasCurl ? false : 'curl is not installed', timeout: 180_000 },
  async () => {
    const blocks = shellBlocks(doc);
    assert.ok(blocks.length >= 7, `${blocks.length} shell blocks`);
    const dir = await mkdtemp(join(tmpdir(), 'toolscope-capture-doc-'));
    try {
      await symlink(join(repo, 'samples'), join(dir, 'samples'));
      const tsx = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('tsx')).href;
      const cli = `node --import ${JSON.stringify(tsx)} ${JSON.stringify(join(repo, 'src/cli/main.ts'))}`;
      const script = [
        'set -euo pipefail',
        // Whatever happens, no background process outlives the test.
        "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
        ...blocks.map((b, i) => `echo "=== block ${i + 1}"\n${b.replaceAll('node dist/cli.js', cli)}`),
      ].join('\n');
      const r = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', timeout: 170_000 });
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      const out = r.stdout;
      assert.match(out, /the embedded endpoint is at http:\/\/127\.0\.0\.1:\d+\/v1/u);
      assert.match(
        out,
        /"messages\[0\]\\" must be a message object, got null","type":"invalid_request_error"/u,
        'the embedded endpoint answers 400 naming the field',
      );
      assert.match(out, /#proxy-\S+ line 1 · kimi_k2 · native · 1 call\b/u, 'the proxied exchange analysed');
      assert.match(out, /· 1 call, 21 tokens/u, 'the --capture-tokens example shows its tokens, as the page says');
      const tokens = JSON.parse((await readFile(join(dir, 'tokens.jsonl'), 'utf8')).trim()) as { completion?: { text: string } };
      assert.match(tokens.completion?.text ?? '', /<\|tool_call_begin\|>functions\.get_weather:0/u);
      const raw = JSON.parse((await readFile(join(dir, 'raw.jsonl'), 'utf8')).trim()) as {
        choices: Array<{ logprobs: { tokens: string[] } }>;
      };
      assert.ok(raw.choices[0]?.logprobs.tokens.every((t) => t.startsWith('token_id:')));
      assert.match(out, /results\.guided-off\.jsonl/u);
      assert.doesNotMatch(out + r.stderr, /[1-9]\d* unreadable line|invalid JSON/u);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
