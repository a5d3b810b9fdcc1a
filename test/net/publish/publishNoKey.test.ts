/**
 * No key anywhere: every target runs with a key in the environment against a server that echoes the credentials it
 * got in its refusal (as some do), once refused and once accepted, and in a dry run; all output and every file in
 * the run's directory are searched for each key, its basic-auth form included, and for any 12 characters of them in a
 * row (a message cut in the middle of a key must not keep its first part).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publishCommand, type PublishOptions } from '../../../src/cli/publishCommand.ts';
import { withTempDir } from '../capture/httpKit.ts';
import { OK_ANSWERS, startPublishServer } from './publishServer.ts';
import { writePublishTrace } from './publishTrace.ts';
import { collect } from './textCollector.ts';

// Made up, in the shapes of each vendor's keys.
const PK = 'pk-lf-3c1e9b2a-7d4f-4e8a-9b6c-2f1d0e5a7c93';
const SK = 'sk-lf-8a2d4f6b-1c3e-4a5b-9d7f-0e2c4a6b8d1f';
const PHOENIX = 'px-eyJhbGciOiJIUzI1NiJ9.a2V5LWZvci10ZXN0cw';
const OTLP = 'otlp-Qm9ndXNLZXlGb3JUZXN0c09ubHk';
const ENV: Record<PublishOptions['to'], NodeJS.ProcessEnv> = {
  langfuse: { LANGFUSE_PUBLIC_KEY: PK, LANGFUSE_SECRET_KEY: SK },
  phoenix: { PHOENIX_API_KEY: PHOENIX },
  otlp: { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${OTLP}` },
};
const FORMS = [PK, SK, PHOENIX, OTLP, Buffer.from(`${PK}:${SK}`).toString('base64')];
/** Every 12-character piece of every key form. */
const PIECES = FORMS.flatMap((k) => Array.from({ length: k.length - 11 }, (_, i) => k.slice(i, i + 12)));

test('publish writes no key to its output, its errors or any file', async () => {
  for (const to of ['langfuse', 'phoenix', 'otlp'] as const) {
    for (const mode of ['refused', 'accepted', 'dry-run'] as const) {
      // Refused: the server answers 401 quoting the authorization header it got, then 500 with it (retried).
      const server = await startPublishServer(OK_ANSWERS[to], (n, req) =>
        mode !== 'refused'
          ? null
          : { status: n % 2 ? 500 : 401, body: `bad credentials: ${String(req.headers.authorization)} ${JSON.stringify(req.headers)}` },
      );
      try {
        await withTempDir(async (dir) => {
          const trace = await writePublishTrace(dir);
          const out = collect();
          const err = collect();
          const result = await publishCommand(
            [trace],
            { to, url: server.url, guided: false, retries: 1, retryDelayScale: 0.001, dryRun: mode === 'dry-run', env: ENV[to] },
            out.stream,
            err.stream,
          );
          if (mode === 'dry-run') assert.equal(server.requests.length, 0);
          else {
            assert.ok(server.requests.length > 0);
            // The key did travel, in the header only.
            const sent = JSON.stringify(server.requests.map((r) => r.headers));
            assert.ok(
              FORMS.some((k) => sent.includes(k)),
              `${to}: the key was sent`,
            );
          }
          assert.equal(result.code, mode === 'refused' ? 1 : 0);
          if (mode === 'refused') assert.match(err.text(), /bad credentials: (Basic |Bearer )?\*\*\*/);
          const files = await readdir(dir, { recursive: true });
          assert.deepEqual(files, ['fleet.jsonl'], 'publish writes no file');
          const texts = [out.text(), err.text(), ...(await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8'))))];
          for (const text of texts)
            for (const piece of PIECES) assert.ok(!text.includes(piece), `${to} ${mode}: part of a key in the output: ${piece}`);
        });
      } finally {
        await server.close();
      }
    }
  }
});
