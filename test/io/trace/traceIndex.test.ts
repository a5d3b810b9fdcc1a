import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, open, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importText } from '../../../src/core/trace/importText.ts';
import { TraceIndex, readTraceItems } from '../../../src/io/trace/traceIndex.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import {
  CHAT_COMPLETION,
  CHAT_REQUEST_LINE,
  NATIVE_RECORDS,
  TEXT_COMPLETION,
  chunk,
  jsonl,
  k2vvLine,
} from '../../core/trace/traceFixtures.ts';

let dir = '';
let counter = 0;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-trace-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(content: string | Uint8Array): Promise<string> {
  const path = join(dir, `t${counter++}.jsonl`);
  await writeFile(path, content);
  return path;
}

const native = (id: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ toolscope: 1, id, ...extra });
const data = (value: unknown): string => `data: ${JSON.stringify(value)}`;

const MIXED = [
  native('n1'),
  '',
  JSON.stringify(CHAT_REQUEST_LINE),
  '   ',
  JSON.stringify(k2vvLine(5, true)),
  data(chunk('A', { content: 'a' })),
  '',
  data(chunk('B', { content: 'b' })),
  'data: {oops',
  data(chunk('A', { content: 'c' }, 'stop')),
  'data: [DONE]',
  '',
  '{"toolscope": 1, "id": ',
  JSON.stringify(CHAT_COMPLETION),
  JSON.stringify(TEXT_COMPLETION),
  ...NATIVE_RECORDS.map((r) => JSON.stringify(r)),
].join('\n');

test('the index gives what importText gives, at any chunk size, with LF, CRLF or a lone CR, BOM or not', async () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    for (const bom of ['', '\uFEFF']) {
      const text = bom + MIXED.split('\n').join(eol) + eol;
      const expected = importText(text, 'mixed');
      assert.ok(expected.records.length > 8);
      assert.deepEqual(
        expected.errors.map((e) => e.line),
        [9, 13],
      );
      const path = await file(text);
      for (const chunkSize of [1, 2, 5, 7, 64, 1000, undefined]) {
        const got = await loadAll(path, { chunkSize });
        assert.deepEqual(
          { records: got.records, errors: got.errors },
          { records: expected.records, errors: expected.errors },
          `eol ${JSON.stringify(eol)} bom ${bom.length} chunk ${chunkSize}`,
        );
      }
    }
  }
});

test('entries: count, line numbers and byte ranges (after a BOM, without CR)', async () => {
  const text = '\uFEFF' + [native('a'), '', data(chunk('S', {})), '', data(chunk('S', {})), native('b')].join('\r\n') + '\r\n';
  const path = await file(text);
  const index = await TraceIndex.open(path);
  try {
    assert.equal(index.count, 3);
    const bytes = await readFile(path);
    const at = (i: number): string => {
      const { start, end } = index.byteRange(i);
      return bytes.subarray(start, end).toString('utf8');
    };
    assert.deepEqual(index.entry(0), {
      index: 0,
      line: 1,
      lastLine: 1,
      start: 3,
      end: 3 + native('a').length,
      sse: false,
      ollama: false,
      printedChunks: false,
      incomplete: false,
    });
    assert.equal(at(0), native('a'));
    assert.deepEqual([index.line(1), index.entry(1).lastLine, index.entry(1).sse], [3, 5, true]);
    assert.equal(at(1), [data(chunk('S', {})), '', data(chunk('S', {}))].join('\r\n'));
    assert.equal(at(2), native('b'));
    assert.equal(index.size, bytes.length);
    const sse = await index.read(1);
    assert.equal(sse.records.length, 1);
    assert.deepEqual([sse.records[0]?.line, sse.records[0]?.lastLine], [3, 5]);
    assert.throws(() => index.entry(3), RangeError);
  } finally {
    await index.close();
  }
});

test('invalid UTF-8 on a line is an error with its line number; the rest loads', async () => {
  const good = Buffer.from(native('ok', { prompt: 'héllo ✓' }) + '\n');
  const bad = Buffer.concat([Buffer.from('{"toolscope":1,"id":"x","prompt":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
  const path = await file(Buffer.concat([good, bad, good]));
  const got = await loadAll(path);
  assert.deepEqual(
    got.records.map((r) => [r.record.id, r.line]),
    [
      ['ok', 1],
      ['ok', 3],
    ],
  );
  assert.equal(got.errors.length, 1);
  assert.equal(got.errors[0]?.line, 2);
  assert.match(got.errors[0]?.message ?? '', /^line 2: invalid UTF-8 \(byte 0xc3 at column byte 35, file offset \d+\)/);
  assert.equal(got.records[0]?.record.prompt, 'héllo ✓');
});

test('invalid UTF-8 inside an SSE block only loses that line', async () => {
  const path = await file(
    Buffer.concat([
      Buffer.from(data(chunk('A', { content: 'x' })) + '\n'),
      Buffer.from('data: {"id":"A","choices":[{"delta":{"content":"\xff"}}]}\n', 'latin1'),
      Buffer.from(data(chunk('A', { content: 'y' })) + '\n'),
    ]),
  );
  const got = await loadAll(path);
  assert.equal(got.records.length, 1);
  assert.equal((got.records[0]?.record.response as unknown[]).length, 2);
  assert.deepEqual(
    got.errors.map((e) => e.line),
    [2],
  );
  assert.match(got.errors[0]?.message ?? '', /invalid UTF-8/);
});

test('a 5 MB line spanning many chunks', async () => {
  const prompt = 'x'.repeat(5 * 1024 * 1024);
  const path = await file([native('small'), native('big', { prompt }), native('after')].join('\n') + '\n');
  for (const chunkSize of [64 * 1024, undefined]) {
    const index = await TraceIndex.open(path, { chunkSize });
    try {
      assert.equal(index.count, 3);
      const big = await index.read(1);
      assert.equal(big.records[0]?.record.prompt?.length, prompt.length);
      assert.equal((await index.read(2)).records[0]?.record.id, 'after');
    } finally {
      await index.close();
    }
  }
});

test('malformed JSON lines give {line, message}; the rest loads', async () => {
  const path = await file([native('a'), '{"toolscope": 1, "id": "b"', 'not json', native('c')].join('\n'));
  const got = await loadAll(path);
  assert.deepEqual(
    got.records.map((r) => r.record.id),
    ['a', 'c'],
  );
  assert.equal(got.errors.length, 2);
  assert.deepEqual(Object.keys(got.errors[0] ?? {}).sort(), ['line', 'message']);
  assert.deepEqual(
    got.errors.map((e) => e.line),
    [2, 3],
  );
  assert.match(got.errors[0]?.message ?? '', /^line 2: invalid JSON/);
});

test('a truncated last line: incomplete error, then read properly after refresh once completed', async () => {
  const line2 = native('second', { prompt: 'p' });
  const path = await file(native('first') + '\n' + line2.slice(0, 20));
  const index = await TraceIndex.open(path, { chunkSize: 16 });
  try {
    assert.equal(index.count, 2);
    assert.equal(index.entry(1).incomplete, true);
    assert.deepEqual(await index.read(1), {
      records: [],
      errors: [{ line: 2, message: 'line 2 is incomplete (the file may still be being written)' }],
    });

    // Nothing new: nothing changes.
    assert.deepEqual(await index.refresh(), { firstChanged: 2, count: 2, reset: false });

    await appendFile(path, line2.slice(20) + '\n' + native('third'));
    const r = await index.refresh();
    assert.deepEqual(r, { firstChanged: 1, count: 3, reset: false });
    assert.equal(index.entry(1).incomplete, false);
    assert.equal((await index.read(1)).records[0]?.record.id, 'second');
    // The last line has no newline but is whole JSON: it loads, still marked incomplete.
    assert.equal(index.entry(2).incomplete, true);
    assert.equal((await index.read(2)).records[0]?.record.id, 'third');
    await appendFile(path, '\n');
    assert.deepEqual(await index.refresh(), { firstChanged: 2, count: 3, reset: false });
    assert.equal(index.entry(2).incomplete, false);
  } finally {
    await index.close();
  }
});

test('a CRLF cut between two appends is one line break, not two', async () => {
  const path = await file(`${native('a')}\r`);
  const index = await TraceIndex.open(path);
  try {
    assert.equal(index.count, 1);
    await appendFile(path, `\n${native('b')}\r\n${native('c')}\r`);
    await index.refresh();
    assert.equal(index.count, 3);
    assert.deepEqual([index.line(0), index.line(1), index.line(2)], [1, 2, 3]);
    const ids: string[] = [];
    for await (const item of index) if (item.kind === 'record') ids.push(item.loaded.record.id);
    assert.deepEqual(ids, ['a', 'b', 'c']);
  } finally {
    await index.close();
  }
});

test('appended records appear on refresh without rescanning what was indexed', async () => {
  const path = await file(
    jsonl([
      { toolscope: 1, id: '1' },
      { toolscope: 1, id: '2' },
    ]),
  );
  const index = await TraceIndex.open(path);
  try {
    assert.equal(index.count, 2);
    const sizeBefore = index.size;
    await appendFile(path, jsonl([{ toolscope: 1, id: '3' }, CHAT_COMPLETION]));
    const r = await index.refresh();
    assert.deepEqual(r, { firstChanged: 2, count: 4, reset: false });
    assert.ok(index.size > sizeBefore);
    assert.equal(index.line(3), 4);
    const ids: string[] = [];
    for await (const item of index) if (item.kind === 'record') ids.push(item.loaded.record.id);
    assert.deepEqual(ids, ['1', '2', '3', 'chatcmpl-abc']);
  } finally {
    await index.close();
  }
});

test('refresh scans only the new bytes', async () => {
  const path = await file('{"toolscope":1,"id":"aaaa"}\n');
  const index = await TraceIndex.open(path);
  try {
    // Rewrite the indexed bytes in place (same size, same file) with two lines: a rescan would see them.
    const handle = await open(path, 'r+');
    await handle.write(Buffer.from('{"toolscope":1}\n{"toolscope":1}\n'.slice(0, 28)), 0, 28, 0);
    await handle.close();
    await appendFile(path, native('new') + '\n');
    assert.deepEqual(await index.refresh(), { firstChanged: 1, count: 2, reset: false });
    assert.equal((await index.read(1)).records[0]?.record.id, 'new');
  } finally {
    await index.close();
  }
});

test('an SSE block at the end grows on refresh; an incomplete SSE tail joins it', async () => {
  const path = await file([native('n'), data(chunk('A', { content: 'a' })), data(chunk('A', { content: 'b' })).slice(0, 15)].join('\n'));
  const index = await TraceIndex.open(path);
  try {
    assert.equal(index.count, 2);
    assert.deepEqual([index.entry(1).line, index.entry(1).lastLine, index.entry(1).incomplete], [2, 3, true]);
    const before = await index.read(1);
    assert.equal(before.records.length, 1);
    assert.deepEqual(before.errors, [{ line: 3, message: 'line 3 is incomplete (the file may still be being written)' }]);

    await appendFile(path, data(chunk('A', { content: 'b' })).slice(15) + '\n\n' + data(chunk('A', { content: 'c' }, 'stop')) + '\n');
    assert.deepEqual(await index.refresh(), { firstChanged: 1, count: 2, reset: false });
    assert.deepEqual([index.entry(1).lastLine, index.entry(1).incomplete], [5, false]);
    const afterRead = await index.read(1);
    assert.deepEqual(afterRead.errors, []);
    assert.deepEqual(
      (afterRead.records[0]?.record.response as Array<{ choices: Array<{ delta: { content?: string } }> }>).map(
        (c) => c.choices[0]?.delta.content,
      ),
      ['a', 'b', 'c'],
    );

    await appendFile(path, native('m') + '\n' + data(chunk('B', {})) + '\n');
    assert.deepEqual(await index.refresh(), { firstChanged: 2, count: 4, reset: false });
  } finally {
    await index.close();
  }
});

test('a file that shrank or was replaced is indexed again', async () => {
  const path = await file(
    jsonl([
      { toolscope: 1, id: 'a' },
      { toolscope: 1, id: 'b' },
    ]),
  );
  const index = await TraceIndex.open(path);
  try {
    await truncate(path, 0);
    await writeFile(path, native('z') + '\n');
    assert.deepEqual(await index.refresh(), { firstChanged: 0, count: 1, reset: true });
    assert.equal((await index.read(0)).records[0]?.record.id, 'z');
    await rm(path);
    await writeFile(
      path,
      jsonl([
        { toolscope: 1, id: 'r1' },
        { toolscope: 1, id: 'r2' },
        { toolscope: 1, id: 'r3' },
      ]),
    );
    const r = await index.refresh();
    assert.equal(r.reset, true);
    assert.equal(r.count, 3);
    assert.equal((await index.read(2)).records[0]?.record.id, 'r3');
  } finally {
    await index.close();
  }
});

test('empty files, a lone BOM, only blank lines', async () => {
  for (const content of ['', '\uFEFF', '\n\n  \r\n', '\uFEFF\r\n']) {
    const index = await TraceIndex.open(await file(content));
    try {
      assert.equal(index.count, 0, JSON.stringify(content));
    } finally {
      await index.close();
    }
  }
  // Two bytes of a BOM so far, then the rest arrives.
  const path = await file(Buffer.from([0xef, 0xbb]));
  const index = await TraceIndex.open(path);
  try {
    assert.equal(index.count, 0);
    await appendFile(path, Buffer.concat([Buffer.from([0xbf]), Buffer.from(native('after-bom') + '\n')]));
    await index.refresh();
    assert.equal((await index.read(0)).records[0]?.record.id, 'after-bom');
  } finally {
    await index.close();
  }
});

test('readTraceItems streams records and errors in line order', async () => {
  const path = await file([data(chunk('A', {})), 'data: nope', data(chunk('B', {})), 'junk', native('n')].join('\n'));
  const seen: string[] = [];
  for await (const item of readTraceItems(path))
    seen.push(item.kind === 'record' ? `${item.loaded.line}:${item.loaded.record.id}` : `${item.error.line}:error`);
  assert.deepEqual(seen, ['1:A', '2:error', '3:B', '4:error', '5:n']);
});

test('readAhead: entries read one after another (from one fs.read) are what each read alone gives; jumps, refreshes and a shrunk file read as before', async () => {
  const path = await file(MIXED + '\n');
  const index = await TraceIndex.open(path, { readAhead: true });
  try {
    const each = async (order: number[]) => Promise.all(order.map((i) => index.read(i)));
    const inOrder = Array.from({ length: index.count }, (_, i) => i);
    // The same results in order (read ahead), backwards (jumps), and in order again.
    const forward = await each(inOrder);
    assert.deepEqual(await each([...inOrder].reverse()), [...forward].reverse());
    assert.deepEqual(await each(inOrder), forward);
    const fresh = await TraceIndex.open(path);
    try {
      for (const i of inOrder) assert.deepEqual(await fresh.read(i), forward[i], `entry ${i}`);
    } finally {
      await fresh.close();
    }
    // Appended and refreshed: the new entries read in sequence with the old.
    await appendFile(path, native('late') + '\n');
    await index.refresh();
    const after = await each(Array.from({ length: index.count }, (_, i) => i));
    assert.equal(after.at(-1)?.records[0]?.record.id, 'late');
    // The file cut short after it was indexed: an entry read afresh past its end says so (one read in sequence may
    // still come from the bytes read ahead just before, as it would have come from a read made a moment earlier).
    await truncate(path, 10);
    const cut = await index.read(index.count - 1);
    assert.match(cut.errors[0]?.message ?? '', /shorter than when it was indexed/);
  } finally {
    await index.close();
  }
});

test('readAhead: a last line completed after it was read in sequence is read again whole', async () => {
  const path = await file(`${native('a')}\n${native('b')}\n{"toolscope": 1, "id": "c`);
  const index = await TraceIndex.open(path, { readAhead: true });
  try {
    for (let i = 0; i < index.count; i++) await index.read(i);
    assert.equal((await index.read(2)).errors.length, 1, 'incomplete');
    await appendFile(path, '"}\n');
    await index.refresh();
    const again = [];
    for (let i = 0; i < index.count; i++) again.push(await index.read(i));
    assert.deepEqual(
      again.map((r) => r.records[0]?.record.id),
      ['a', 'b', 'c'],
    );
  } finally {
    await index.close();
  }
});
