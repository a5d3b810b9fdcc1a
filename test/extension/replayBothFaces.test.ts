/**
 * One replay run for both faces: the same record replayed from the editor (Replay Record, through a stand-in
 * `vscode`, the endpoint from the user's settings) and from the CLI (`toolscope replay --endpoint`) sends
 * byte-identical requests to the embedded server on 127.0.0.1 — seen by a loopback tap in front of it — and writes
 * the same result lines. What differs between two runs by nature is set aside before comparing: the time in a
 * replay's id, `meta.created` and `meta.timings`, the server's clock and request counter in its answers, and the
 * endpoint's name (the CLI's is `cli`, the user's their own).
 * With no endpoint, each face starts its own embedded server: the lines are the same again, its port aside.
 */
import './vscodeHook.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fake, Uri } from './fakeVscode.ts';
import { ApiKeys } from '../../src/extension/endpoints.ts';
import { ReplayRecordCommand } from '../../src/extension/replayRecordCommand.ts';
import { replayCommand } from '../../src/cli/replayCommand.ts';
import { startServer, type RunningServer } from '../../src/net/server/openAiServer.ts';
import { loadAll } from '../../src/io/trace/loadTrace.ts';
import { sink } from '../textSink.ts';

const SAMPLE = fileURLToPath(new URL('../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));
const RECORD = 'schema-violations';

let dir: string;
let trace: string;
let sim: RunningServer;
let tap: Server;
let tapUrl: string;
const seen: Array<{ path: string; body: Buffer }> = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-bothfaces-'));
  trace = join(dir, 'kimi.jsonl');
  await copyFile(SAMPLE, trace);
  sim = await startServer({ script: (await loadAll(trace)).records.map((r) => r.record) });
  // Keeps every request's bytes and passes it on unchanged.
  tap = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ path: req.url ?? '', body });
      const target = new URL(req.url ?? '/', sim.url);
      const up = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => tap.listen(0, '127.0.0.1', r));
  tapUrl = `http://127.0.0.1:${(tap.address() as { port: number }).port}/v1`;
});

after(async () => {
  await new Promise((r) => tap.close(r));
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** A written replay line with what differs between two runs by nature set aside. */
function comparable(line: string, portToo = false): unknown {
  // The server's answers carry its clock and a request counter (`created`, `cmpl-toolscope-N`), also in meta.rawStream.
  const serverTime = line.replace(/(\\?"created\\?":)\d+/gu, '$1<time>').replace(/cmpl-toolscope-\d+/gu, 'cmpl-toolscope-<n>');
  const r = JSON.parse(serverTime) as { id: string; meta: Record<string, unknown> };
  r.id = r.id.replace(/-[0-9a-z]+$/u, '-<time>');
  const { created: _c, timings: _t, endpointName: _n, ...meta } = r.meta;
  if (portToo) meta.endpoint = String(meta.endpoint).replace(/:\d+\//u, ':<port>/');
  return { ...r, meta };
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').filter(Boolean);
}

function editor(): ReplayRecordCommand {
  const secrets = { get: () => Promise.resolve(undefined) };
  return new ReplayRecordCommand(new ApiKeys(secrets as never), { appendLine: () => undefined, show: () => undefined } as never);
}

const pick = (label: string) => (items: Array<{ label: string }>) => items.find((i) => i.label === label);

test('editor and CLI replays of one record: byte-identical requests, the same result lines (completions, guided both)', async () => {
  fake.settings.clear();
  fake.workspaceSettings.clear();
  fake.trusted = true;
  fake.settings.set('toolscope.endpoints', [{ name: 'my-sim', baseUrl: tapUrl, model: sim.model, engine: 'vllm' }]);

  seen.length = 0;
  fake.picks.push(pick('my-sim'), pick('Completions'), pick('Both'));
  await editor().run({ uri: Uri.file(trace) as never, recordId: RECORD });
  const fromEditor = seen.splice(0);
  const editorLines = await lines(join(dir, 'kimi.replays.jsonl'));

  const cliOut = join(dir, 'cli.replays.jsonl');
  const code = await replayCommand(
    trace,
    {
      records: [RECORD],
      endpoint: tapUrl,
      model: sim.model,
      engine: 'vllm',
      apiKeyEnv: 'TOOLSCOPE_TEST_NO_SUCH_KEY',
      guided: 'both',
      mode: 'completions',
      timeoutS: 600,
      retries: 2,
      maxAnswerMb: 64,
      out: cliOut,
    },
    sink(),
  );
  assert.equal(code, 0);
  const fromCli = seen.splice(0);

  assert.equal(fromEditor.length, 2, 'guided off, then on');
  assert.deepEqual(
    fromCli.map((r) => r.path),
    fromEditor.map((r) => r.path),
  );
  for (const [i, r] of fromEditor.entries()) assert.ok(r.body.equals(fromCli[i]?.body ?? Buffer.alloc(0)), `request ${i} differs`);
  // Completions mode as the issue asks: the record's template with special tokens kept, token ids and logprobs asked for.
  const off = JSON.parse(fromEditor[0]?.body.toString() ?? '{}') as Record<string, unknown>;
  assert.equal(fromEditor[0]?.path, '/v1/completions');
  assert.equal(off.skip_special_tokens, false);
  assert.equal(off.return_tokens_as_token_ids, true);
  assert.equal(off.logprobs, 1);
  assert.match(String(off.prompt), /<\|im_system\|>/u);
  assert.ok(JSON.parse(fromEditor[1]?.body.toString() ?? '{}').structured_outputs, 'guided on sends the structural tag');

  const cliLines = await lines(cliOut);
  assert.equal(editorLines.length, 2);
  assert.deepEqual(
    cliLines.map((l) => comparable(l)),
    editorLines.map((l) => comparable(l)),
  );
  // The answers hold tokens to step through, and guided on parts from guided off.
  const [offRecord, onRecord] = editorLines.map((l) => JSON.parse(l) as { completion?: { text: string; tokens?: unknown[] } });
  assert.ok((offRecord?.completion?.tokens?.length ?? 0) > 0 && (onRecord?.completion?.tokens?.length ?? 0) > 0);
  assert.notEqual(offRecord?.completion?.text, onRecord?.completion?.text);
});

test('with the embedded endpoint each face starts its own: the same result lines, its port aside', async () => {
  fake.settings.clear();
  fake.trusted = true;
  const editorOut = join(dir, 'kimi.replays.jsonl');
  await rm(editorOut, { force: true });
  fake.picks.push(pick('Embedded endpoint'), pick('Completions'), pick('Both'));
  await editor().run({ uri: Uri.file(trace) as never, recordId: RECORD });
  const cliOut = join(dir, 'cli-embedded.replays.jsonl');
  const code = await replayCommand(
    trace,
    {
      records: [RECORD],
      engine: 'vllm',
      apiKeyEnv: 'TOOLSCOPE_TEST_NO_SUCH_KEY',
      guided: 'both',
      mode: 'completions',
      timeoutS: 600,
      retries: 2,
      maxAnswerMb: 64,
      out: cliOut,
    },
    sink(),
  );
  assert.equal(code, 0);
  const editorLines = await lines(editorOut);
  assert.equal(editorLines.length, 2);
  assert.deepEqual(
    (await lines(cliOut)).map((l) => comparable(l, true)),
    editorLines.map((l) => comparable(l, true)),
  );
  // The model name is the server's own, in both.
  for (const l of editorLines) assert.equal((JSON.parse(l) as { meta: { model: string } }).meta.model, sim.model);
});
