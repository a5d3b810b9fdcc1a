/**
 * web-xgrammar inside an esbuild CommonJS bundle, as dist/cli.js and dist/extension.js are built: through the
 * `umdAsCommonJs` plugin of scripts/build.mjs, a bundle of the guided module compiles and runs a what-if.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../../..');

async function bundle(entry: string, outfile: string, plugins: Plugin[]): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    plugins,
  });
}

test('bundled with the build plugin: the guided module loads web-xgrammar and runs', async () => {
  const buildScript = pathToFileURL(join(ROOT, 'scripts/build.mjs')).href;
  const { umdAsCommonJs } = (await import(buildScript)) as { umdAsCommonJs: Plugin };
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-guided-bundle-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { compileFormatGrammar, whatIf } from ${JSON.stringify(join(ROOT, 'src/core/guided/index.ts'))};
import { getFormat } from ${JSON.stringify(join(ROOT, 'src/core/formats/registry.ts'))};
const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
async function main() {
  const g = await compileFormatGrammar(getFormat('kimi_k2').guided!, tools, 'auto');
  const text = '<|tool_calls_section_begin|><|tool_call_begin|>functions.img_gen:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>';
  const r = await whatIf(g, { text, tokens: [] });
  process.stdout.write(JSON.stringify({ route: g.route, accepted: r.accepted, offset: r.accepted ? null : r.charOffset }));
}
main().catch((e) => { process.stderr.write(String(e)); process.exitCode = 1; });
`,
    );
    const out = join(dir, 'bundle.js');
    await bundle(entry, out, [umdAsCommonJs]);
    const result = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as {
      route: string;
      accepted: boolean;
      offset: number;
    };
    assert.deepStrictEqual(result, { route: 'patched-ebnf', accepted: false, offset: 57 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without the plugin esbuild makes web-xgrammar an empty module (why the plugin exists)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-guided-bundle-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import * as xg from '@mlc-ai/web-xgrammar';\nprocess.stdout.write(String(typeof (xg as Record<string, unknown>).Grammar));\n`,
    );
    const out = join(dir, 'bundle.js');
    await build({
      entryPoints: [entry],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
      nodePaths: [join(ROOT, 'node_modules')],
    });
    assert.equal(execFileSync(process.execPath, [out], { encoding: 'utf8' }), 'undefined');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bundled: the grammar engine starts guidedWorker.js beside the bundle, survives an abort, keeps stdout clean', async () => {
  const buildScript = pathToFileURL(join(ROOT, 'scripts/build.mjs')).href;
  const { umdAsCommonJs } = (await import(buildScript)) as { umdAsCommonJs: Plugin };
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-guided-worker-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { GuidedEngine } from ${JSON.stringify(join(ROOT, 'src/io/guided/guidedEngine.ts'))};
const tools = (parameters: unknown) => [{ type: 'function' as const, function: { name: 'f', parameters: parameters as Record<string, never> } }];
const text = '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": "x"}<|tool_call_end|><|tool_calls_section_end|>';
async function main() {
  const engine = new GuidedEngine();
  const out = [];
  for (const p of [{ type: 'object', properties: { a: { $id: 'x.json', $ref: '#/$defs/nothing' } } }, { type: 'object', properties: { a: { type: 'string' } } }]) {
    const r = await engine.whatIf({ tools: tools(p), tool_choice: 'auto' }, { text, tokens: [] }, { format: 'kimi_k2' });
    out.push(r.ran ? r.result.accepted : r.why.slice(0, 16));
  }
  process.stdout.write(JSON.stringify({ out, starts: engine.stats.starts }));
}
main().catch((e) => { process.stderr.write(String(e)); process.exitCode = 1; });
`,
    );
    await bundle(entry, join(dir, 'bundle.js'), [umdAsCommonJs]);
    await bundle(join(ROOT, 'src/io/guided/engineWorker.ts'), join(dir, 'guidedWorker.js'), [umdAsCommonJs]);
    const stdout = execFileSync(process.execPath, [join(dir, 'bundle.js')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.deepStrictEqual(JSON.parse(stdout), { out: ['xgrammar aborted', true], starts: 2 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
