/**
 * The CSV reader over rows whose quoted fields hold what JSON text and prose hold — line feeds, CRLF, lone carriage
 * returns, doubled quotes, commas, multi-byte characters — in a file of several 1 MB chunks, so that chunk
 * boundaries fall inside fields and line breaks: every row comes back with its values and the line it starts on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvRows } from '../../../src/io/trace/csvRows.ts';

const PIECES = ['{"a": 1}', 'line\nbreak', 'crlf\r\ninside', 'lone\rcr', 'say "hi"', 'a, b', 'é€😀', '', 'x'.repeat(5000)];

/** Line breaks as the reader counts them: CRLF once, a lone CR or LF once. */
const breaks = (s: string) => (s.match(/\r\n|\r|\n/g) ?? []).length;

test('quoted fields across 1 MB chunks: values and row lines as written', async () => {
  const header = ['id', 'input', 'output'];
  const rows: Array<Record<string, string | null>> = [];
  const lines: number[] = [];
  let text = header.join(',') + '\r\n';
  let line = 2;
  for (let i = 0; text.length < 3.5 * (1 << 20); i++) {
    const input = PIECES.slice(i % PIECES.length).join(PIECES[(i * 7) % PIECES.length] ?? '');
    const output = PIECES[(i * 3) % PIECES.length] ?? '';
    const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
    const row = `${i},${quote(input)},${quote(output)}`;
    rows.push({ id: String(i), input: input === '' ? null : input, output: output === '' ? null : output });
    lines.push(line);
    const end = i % 2 ? '\n' : '\r\n';
    text += row + end;
    line += breaks(quote(input)) + breaks(quote(output)) + 1;
  }
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-csv-'));
  try {
    const path = join(dir, 'rows.csv');
    await writeFile(path, text);
    const got: Array<{ line: number; row: Record<string, unknown> }> = [];
    for await (const r of csvRows(path)) got.push(r);
    assert.equal(got.length, rows.length);
    for (let i = 0; i < rows.length; i++) {
      // Compared as JSON text: a failure then prints two lines, not two 1 MB objects.
      assert.ok(JSON.stringify(got[i]?.row) === JSON.stringify(rows[i]), `row ${i} differs`);
      assert.equal(got[i]?.line, lines[i], `row ${i}'s line`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
