/**
 * One pretty-printed entry longer than V8's longest string (2^29 − 24 characters, about 512 Mi; issue 30): it is one
 * error naming its lines and why, and the records before and after it still load. Opt-in (TOOLSCOPE_HUGE_ENTRY=1):
 * it writes a 570 MB file and its child peaks at about 1.6 GB, too much for every run on a shared machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { peakRssMb } from '../../childProcess.ts';

const OPT_IN = 'TOOLSCOPE_HUGE_ENTRY';
/** Continuation lines of about 1,020 characters each: 570 Mi characters in all, past 2^29 − 24. */
const LINES = 560_000;

test(
  'a pretty-printed entry over 512 Mi characters is one error; the records around it load',
  { skip: process.env[OPT_IN] === '1' ? false : `set ${OPT_IN}=1 to run it (a 570 MB file, about 1.6 GB of memory)` },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolscope-huge-entry-'));
    try {
      const path = join(dir, 'huge.jsonl');
      const out = createWriteStream(path);
      const write = async (text: string) => {
        if (!out.write(text)) await once(out, 'drain');
      };
      await write(`${JSON.stringify({ toolscope: 1, id: 'before', completion: { text: 'a' } })}\n`);
      // The entry's characters: its lines and the newlines between them (not the one after its last line).
      let entryChars = -1;
      const writeEntry = (text: string) => {
        entryChars += text.length;
        return write(text);
      };
      await writeEntry('{\n  "toolscope": 1,\n  "id": "huge",\n  "completion": {\n    "text": "x",\n');
      const value = 'y'.repeat(1000);
      let batch = '';
      for (let i = 0; i < LINES; i++) {
        batch += `    "k${i}": "${value}",\n`;
        if (batch.length > 1 << 20) {
          await writeEntry(batch);
          batch = '';
        }
      }
      await writeEntry(`${batch}    "end": 0\n  }\n}\n`);
      out.end(`${JSON.stringify({ toolscope: 1, id: 'after', completion: { text: 'b' } })}\n`);
      await once(out, 'finish');
      const script = `
      import { readTraceItems } from ${JSON.stringify(new URL('../../../src/io/trace/traceIndex.ts', import.meta.url).href)};
      const out = [];
      for await (const item of readTraceItems(process.argv[process.argv.length - 1])) {
        if (item.kind === 'error') out.push('error ' + item.error.message);
        else out.push('record ' + item.loaded.line + ' ' + item.loaded.record.id);
      }
      process.stdout.write(out.join('\\n'));`;
      const { mb, stdout } = peakRssMb(script, [path]);
      // Line 1, the entry's five opening lines, its LINES, its three closing lines, then the record after it.
      const lastLine = 1 + 5 + LINES + 3 + 1;
      assert.deepEqual(stdout.split('\n'), [
        'record 1 before',
        `error line 2: lines 2–${lastLine - 1} make one entry of ${entryChars} characters, more than a JavaScript string holds (536870888): it is not read as one value`,
        `record ${lastLine} after`,
      ]);
      console.log(`peak RSS ${mb.toFixed(0)} MB`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
