/**
 * One streamed answer of a million SSE events (issue 30) is read in a child process within 600 MB of peak memory,
 * the answer whole: the events are folded as they are read, not all held first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { peakRssMb } from '../../childProcess.ts';

const EVENTS = 1_000_000;

// Before the events were folded as read: about 775 MB (every line decoded and held first, every chunk of a text or
// llama.cpp stream held, each chunk's repeated id/object/model a string of its own); about 485 MB after.
test('a stream of 1e6 SSE events reads within 600 MB', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-sse-million-'));
  try {
    const path = join(dir, 'stream.sse');
    const out = createWriteStream(path);
    const event = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1761043000, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let batch = event({ role: 'assistant', content: '' });
    for (let i = 1; i < EVENTS - 1; i++) {
      batch += event({ content: 'ab' });
      if (batch.length > 1 << 20 && !out.write(batch)) await once(out, 'drain');
      if (batch.length > 1 << 20) batch = '';
    }
    out.end(`${batch}${event({}, 'stop')}data: [DONE]\n\n`);
    await once(out, 'finish');
    const script = `
      import { readTraceItems } from ${JSON.stringify(new URL('../../../src/io/trace/traceIndex.ts', import.meta.url).href)};
      const out = [];
      for await (const item of readTraceItems(process.argv[process.argv.length - 1])) {
        if (item.kind === 'error') out.push('error ' + item.error.message.slice(0, 200));
        else {
          // The chunks are kept as recorded (the analysis folds them); the content is every delta's.
          const chunks = item.loaded.record.response;
          const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
          out.push('record ' + item.loaded.line + ' ' + chunks.length + ' ' + text.length);
        }
      }
      process.stdout.write(out.join('\\n'));`;
    const { mb, stdout } = peakRssMb(script, [path]);
    assert.deepEqual(stdout.split('\n'), [`record 1 ${EVENTS} ${2 * (EVENTS - 2)}`]);
    console.log(`peak RSS ${mb.toFixed(0)} MB`);
    assert.ok(mb < 600, `peak RSS ${mb.toFixed(0)} MB`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
