/**
 * A `.eval` bomb (issue 30): a small archive whose sample entries inflate to 3 × 300 MB — two declaring their size,
 * one declaring 1 kB — is read in a child process within 600 MB of peak memory (it took 3.1 GB), each entry an error
 * of its own, and a good sample beside them still loads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, createDeflateRaw, crc32 } from 'node:zlib';
import { peakRssMb } from '../../childProcess.ts';
import { storedEntry, zipArchive, type ZipEntry } from './zipArchive.ts';

const fixture = fileURLToPath(new URL('../../fixtures/inspect/log_read_sample.reduced.json', import.meta.url));
const MB = 1024 * 1024;

/**
 * `megabytes` MB of spaces, deflated without ever being held or compressed whole: a full flush resets the
 * compressor, so every 1 MB piece deflates to the same bytes, written as often as needed (about 300 kB for 300 MB).
 */
async function deflatedSpaces(megabytes: number): Promise<{ data: Uint8Array; crc: number }> {
  const chunk = Buffer.alloc(MB, 0x20);
  const deflate = createDeflateRaw();
  const pieces: Buffer[] = [];
  deflate.on('data', (b: Buffer) => pieces.push(b));
  deflate.write(chunk);
  await new Promise((r) => deflate.flush(constants.Z_FULL_FLUSH, () => r(undefined)));
  const piece = Buffer.concat(pieces.splice(0));
  await new Promise((r) => deflate.end(r));
  const end = Buffer.concat(pieces);
  let crc = 0;
  for (let i = 0; i < megabytes; i++) crc = crc32(chunk, crc);
  return { data: Buffer.concat([...Array.from({ length: megabytes }, () => piece), end]), crc };
}

test('a .eval bomb of 3 × 300 MB entries reads within 600 MB, each entry an error, the good sample loaded', async () => {
  const log = JSON.parse(await readFile(fixture, 'utf8')) as { samples: unknown[] };
  const bomb = await deflatedSpaces(300);
  const entry = (name: string, size: number): ZipEntry => ({ name, method: 8, data: bomb.data, size, crc: bomb.crc });
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-bomb-'));
  try {
    const path = join(dir, 'bomb.eval');
    const archive = zipArchive([
      storedEntry('samples/0_epoch_1.json', JSON.stringify(log.samples[0])),
      entry('samples/1_epoch_1.json', 300 * MB),
      entry('samples/2_epoch_1.json', 300 * MB),
      entry('samples/3_epoch_1.json', 1000),
    ]);
    assert.ok(archive.length < 2 * MB, `the archive is small: ${archive.length} bytes`);
    await writeFile(path, archive);
    const script = `
      import { readTraceItems } from ${JSON.stringify(new URL('../../../src/io/trace/traceIndex.ts', import.meta.url).href)};
      const out = [];
      for await (const item of readTraceItems(process.argv[process.argv.length - 1]))
        out.push(item.kind === 'record' ? 'record ' + item.loaded.record.id : 'error ' + item.error.message);
      process.stdout.write(out.join('\\n'));`;
    const { mb, stdout } = peakRssMb(script, [path]);
    const lines = stdout.split('\n');
    assert.deepEqual(lines.slice(0, 2), ['record 1/1/1', 'record 1/1/2']);
    assert.equal(lines.length, 6, stdout);
    assert.match(lines[3] ?? '', /samples\/1_epoch_1\.json holds 314572800 bytes uncompressed/);
    assert.match(lines[4] ?? '', /samples\/2_epoch_1\.json holds 314572800 bytes uncompressed/);
    assert.match(lines[5] ?? '', /samples\/3_epoch_1\.json cannot be read/);
    assert.ok(mb < 600, `peak RSS ${mb.toFixed(0)} MB`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
