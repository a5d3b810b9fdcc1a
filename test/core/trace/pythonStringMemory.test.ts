/**
 * A Python printout holding a 50 MB string (issue 30: 2.1 GB) is read in a child process within 600 MB of peak
 * memory, the string whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRssMb } from '../../childProcess.ts';

test('a printout with a 50 MB string reads within 600 MB', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-py-string-'));
  try {
    const path = join(dir, 'printout.txt');
    const big = "ab\\'c ".repeat(10 * 1024 * 1024); // 50 MB of text with an escape every 6 characters
    await writeFile(path, `{'role': 'assistant', 'content': '${big}'}\n{'role': 'assistant', 'content': 'next'}\n`);
    const script = `
      import { readTraceItems } from ${JSON.stringify(new URL('../../../src/io/trace/traceIndex.ts', import.meta.url).href)};
      const out = [];
      for await (const item of readTraceItems(process.argv[process.argv.length - 1])) {
        if (item.kind === 'error') out.push('error ' + item.error.message.slice(0, 200));
        else out.push('record ' + item.loaded.line + ' ' + String(item.loaded.record.response?.choices?.[0]?.message?.content?.length));
      }
      process.stdout.write(out.join('\\n'));`;
    const { mb, stdout } = peakRssMb(script, [path]);
    assert.deepEqual(stdout.split('\n'), [`record 1 ${5 * 10 * 1024 * 1024}`, 'record 2 4']);
    assert.ok(mb < 600, `peak RSS ${mb.toFixed(0)} MB`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
