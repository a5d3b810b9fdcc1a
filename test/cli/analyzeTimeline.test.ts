/**
 * `toolscope analyze` parses each completion in one piece (`timeline: false`: it prints nothing of the per-token
 * timeline). By split invariance that is the same parse as token by token: over the inputs and option sets of the
 * output pin, plus the real cases and the hostile schemas, `analyze --json` and the readable report are the same
 * bytes both ways.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { analyzeCommand, type AnalyzeCommandOptions } from '../../src/cli/analyzeCommand.ts';
import { PINNED_OPTION_SETS } from '../architecture/pinnedOptionSets.ts';
import { ABORTING_CLASSES, recordWithSchema, traceText } from '../fixtures/hostileSchemas.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const OPTION_SETS: Record<string, AnalyzeCommandOptions> = { ...PINNED_OPTION_SETS, 'format-llama': { format: 'llama' } };

async function analyzed(files: string[], options: AnalyzeCommandOptions): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  // The what-if runs on another thread and answers the same either way: left out, as it is slow.
  await analyzeCommand(files, { ...options, guided: false }, sink);
  return text;
}

test('analyze prints the same with and without the per-token timeline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-timeline-'));
  try {
    const hostile = join(dir, 'hostile.jsonl');
    writeFileSync(hostile, traceText(ABORTING_CLASSES.map((c, i) => recordWithSchema(`h${i}`, c.schema))));
    const files = [
      ...['samples', 'test/webview/fixtures', 'test/fixtures/real/cases'].flatMap((d) =>
        readdirSync(join(ROOT, d))
          .filter((f) => /\.(jsonl|json|sse)$/.test(f))
          .sort()
          .map((f) => join(ROOT, d, f)),
      ),
      hostile,
    ];
    for (const [name, options] of Object.entries(OPTION_SETS)) {
      for (const json of [true, false]) {
        const perToken = await analyzed(files, { ...options, json });
        const whole = await analyzed(files, { ...options, json, timeline: false });
        assert.ok(perToken.split('\n').length > 100, `${name}: the inputs gave output`);
        assert.equal(whole, perToken, `${name}${json ? ' --json' : ''}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
