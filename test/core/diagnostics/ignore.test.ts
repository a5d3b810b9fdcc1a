/** Silencing: ignored kinds leave the findings and are counted per kind, never dropped without a trace. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeCommand } from '../../../src/cli/analyzeCommand.ts';
import { analyze, completionResponse, ofKind, record } from './analyze.helpers.ts';

const leaky = () =>
  record({ response: completionResponse('I will check. <|tool_call_begin|> functions.get_weather:0 <|END_OF_TURN_TOKEN|>', [], 'stop') });

test('ignore: the kinds are counted in `ignored`, the rest stays', () => {
  const all = analyze(leaky());
  assert.ok(ofKind(all, 'content-leak').length > 0 && ofKind(all, 'unknown-markup-in-content').length > 0);
  assert.deepEqual(all.ignored, {});
  const quiet = analyze(leaky(), { ignore: ['content-leak'] });
  assert.deepEqual(ofKind(quiet, 'content-leak'), []);
  assert.deepEqual(quiet.ignored, { 'content-leak': ofKind(all, 'content-leak').length });
  assert.equal(quiet.diagnostics.length, all.diagnostics.length - ofKind(all, 'content-leak').length);
});

test('analyze --ignore: JSON carries `ignored`, the summary counts them, --fail-on ignores them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-ignore-'));
  try {
    const path = join(dir, 't.jsonl');
    await writeFile(path, JSON.stringify(leaky()) + '\n');
    let out = '';
    const sink = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
    assert.equal(
      await analyzeCommand(
        [path],
        { json: true, guided: false, ignore: ['content-leak', 'unknown-tool', 'invalid-arguments-json'], failOn: 'error' },
        sink,
      ),
      0,
    );
    const line = JSON.parse(out) as { ignored: Record<string, number>; diagnostics: Array<{ kind: string }> };
    assert.ok(line.ignored['content-leak']! > 0);
    assert.ok(line.diagnostics.every((d) => d.kind !== 'content-leak'));
    out = '';
    const text = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
    await analyzeCommand([path], { guided: false, ignore: ['content-leak'] }, text);
    assert.match(out, /ignored \d+ content-leak \(--ignore\)/u);
    assert.match(out, /\d+ {2}content-leak \(ignored: --ignore\)/u);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
