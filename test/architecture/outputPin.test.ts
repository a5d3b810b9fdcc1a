/**
 * The output pin: `analyze --json` of every sample and web fixture, under option sets that reach every parser and
 * profile, hashed line by line. A refactoring commit must leave every hash as it is. A commit that lands a behaviour
 * change re-baselines it on purpose, and says so:
 *
 *   TOOLSCOPE_UPDATE_PIN=1 node --import tsx --test test/architecture/outputPin.test.ts
 *
 * A failure names the option set, file and line whose output changed, so the change can be looked at with
 * `node dist/cli.js analyze FILE --json OPTIONS`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { analyzeCommand, type AnalyzeCommandOptions } from '../../src/cli/analyzeCommand.ts';
import { PINNED_OPTION_SETS } from './pinnedOptionSets.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PIN = join(import.meta.dirname, 'outputPin.json');

const OPTION_SETS = PINNED_OPTION_SETS;

function inputs(): string[] {
  const dirs = ['samples', 'test/webview/fixtures'];
  return dirs.flatMap((d) =>
    readdirSync(join(ROOT, d))
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map((f) => join(ROOT, d, f)),
  );
}

/** `analyze --json` of the inputs, in process: one hash per output line, keyed by its file and position. */
async function pinOf(options: AnalyzeCommandOptions): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of inputs()) {
    let text = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    await analyzeCommand([file], { ...options, json: true }, sink);
    const name = relative(ROOT, file).split('\\').join('/');
    // Paths in the output are made relative so the pin does not depend on where the repo is.
    const lines = text
      .split(ROOT + '/')
      .join('')
      .split('\n')
      .filter(Boolean);
    for (const [i, line] of lines.entries()) out[`${name}#${i + 1}`] = createHash('sha256').update(line).digest('hex').slice(0, 16);
  }
  return out;
}

test('analyze --json of the samples and fixtures is as pinned, under every option set', async () => {
  const current: Record<string, Record<string, string>> = {};
  for (const [name, options] of Object.entries(OPTION_SETS)) current[name] = await pinOf(options);
  if (process.env.TOOLSCOPE_UPDATE_PIN) {
    writeFileSync(PIN, JSON.stringify(current, null, 1) + '\n');
    return;
  }
  const pinned = JSON.parse(readFileSync(PIN, 'utf8')) as typeof current;
  const changed: string[] = [];
  for (const name of new Set([...Object.keys(pinned), ...Object.keys(current)])) {
    const was = pinned[name] ?? {};
    const now = current[name] ?? {};
    for (const key of new Set([...Object.keys(was), ...Object.keys(now)]))
      if (was[key] !== now[key]) changed.push(`${name}: ${key}${was[key] ? (now[key] ? ' changed' : ' gone') : ' new'}`);
  }
  assert.deepEqual(
    changed.slice(0, 40),
    [],
    `${changed.length} output lines differ from the pin (re-baseline only with a behaviour change, and say so)`,
  );
});
