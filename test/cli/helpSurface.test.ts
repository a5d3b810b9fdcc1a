/**
 * The CLI's surface stays what it was while its commands move into their own files: every command's `--help`
 * equals the text captured before the move (test/fixtures/cli/help-before-commands.json), the flags added since
 * (NEW_FLAGS), the commands added since (NEW_COMMANDS: their entries in the program's help) and the formats registered since taken out, compared as words. A flag renamed, dropped, reworded or re-defaulted by the move fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.ts';
import { formatNames, getFormat } from '../../src/core/formats/registry.ts';

/** Flags added after the capture, per command: their lines (and wrapped continuation lines) leave the help first. */
const NEW_FLAGS: Record<string, readonly string[]> = {
  'toolscope analyze': ['--parquet', '--shard'],
  'toolscope eval rescore': ['--summary'],
  'toolscope eval compare': ['--with-simulated'],
};

/** Commands added after the capture: their own help is tested beside them, and their entry leaves the program's help. */
const NEW_COMMANDS: readonly string[] = ['publish'];

const before = JSON.parse(readFileSync(new URL('../fixtures/cli/help-before-commands.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;

/** The formats registered when the help was captured; a format registered since joins every `--format` choice list. */
const CAPTURED_FORMATS = ['kimi_k2', 'harmony', 'deepseek_v31', 'qwen3_coder', 'hermes', 'llama'];

/**
 * The help as words: white space folded (a longer choice list wraps its lines anew) and the names of formats
 * registered since the capture (and their tag shapes) taken out of the choice lists, so the comparison still sees every flag, its wording
 * and its default.
 */
function asWords(help: string): string {
  // A new format adds its name to `--format` and its tag shapes to `--tag-shape`.
  const added = formatNames()
    .filter((n) => !CAPTURED_FORMATS.includes(n))
    .flatMap((n) => [n, ...(getFormat(n).guided?.shapes ?? [])]);
  let words = help.replace(/\s+/gu, ' ');
  // Taken out wherever it stands in the list, the last place included.
  for (const name of added) words = words.replaceAll(`"${name}", `, '').replaceAll(`, "${name}")`, ')');
  return words;
}

/** Every command's help, keyed by its full name (`toolscope eval run`). */
function helpTexts(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (cmd: Command, path: string[]) => {
    out[path.join(' ')] = cmd.helpInformation();
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(buildProgram(), ['toolscope']);
  return out;
}

/** The program's help without the entries of the commands added since the capture (an entry and its wrapped lines). */
function withoutCommands(help: string): string {
  const kept: string[] = [];
  let dropping = false;
  for (const line of help.split('\n')) {
    const entry = /^ {2}(\w\S*)/.exec(line);
    if (entry) dropping = NEW_COMMANDS.includes(entry[1]!);
    else if (!/^ {3,}\S/.test(line)) dropping = false;
    if (!dropping) kept.push(line);
  }
  return kept.join('\n');
}

/** The help without the option entries of `flags`: an entry is its line and the deeper-indented lines under it. */
function withoutFlags(help: string, flags: readonly string[]): string {
  const lines = help.split('\n');
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const entry = /^ {2}(-\S+)/.exec(line);
    if (entry) dropping = flags.some((f) => line.trimStart().split(/[ ,]/).includes(f));
    else if (!/^ {3,}\S/.test(line)) dropping = false;
    if (!dropping) kept.push(line);
  }
  return kept.join('\n');
}

test('every command of the CLI is still there, with the same help (new flags aside)', () => {
  const now = helpTexts();
  for (const name of NEW_COMMANDS) delete now[`toolscope ${name}`];
  now['toolscope'] = withoutCommands(now['toolscope']!);
  assert.deepEqual(Object.keys(now).sort(), Object.keys(before).sort());
  for (const [name, help] of Object.entries(now)) {
    assert.equal(asWords(withoutFlags(help, NEW_FLAGS[name] ?? [])), asWords(before[name] ?? ''), `${name} --help changed`);
  }
});

test('taking new flags out of a help leaves the other entries whole', () => {
  const help = [
    'Options:',
    '  --json           print JSON Lines',
    '  --parquet <dir>  write records.parquet and',
    '                   findings.parquet',
    '  --jobs <n>       worker threads',
    '  -h, --help       display help',
  ].join('\n');
  assert.equal(
    withoutFlags(help, ['--parquet']),
    ['Options:', '  --json           print JSON Lines', '  --jobs <n>       worker threads', '  -h, --help       display help'].join('\n'),
  );
});
