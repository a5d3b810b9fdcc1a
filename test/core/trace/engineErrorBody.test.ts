/**
 * Engine error bodies as records: the bodies Ollama and llama-server answer with when their tool parser fails are
 * failed records with a stream-error finding (detail `error-body`), markup they quote is read as the completion so
 * dropped-call names the lost call, and `--fail-on error` sees them. Other JSON with an `error` key is read as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { analyzeCommand } from '../../../src/cli/analyzeCommand.ts';

// As continuedev/continue#10221 shows Ollama's body (gpt-oss, an HTTP 500).
const OLLAMA = '{"error":"error parsing tool call: raw=\'ls -R\\n\', err=invalid character \'l\' looking for beginning of value"}';
// As ggml-org/llama.cpp#20761 shows llama-server's body (Qwen3.5, `</tool_call>` with no opener).
const LLAMA_SERVER = '{"error":{"code":500,"message":"Failed to parse input at pos 12: </tool_call>","type":"server_error"}}';

const analyse = (text: string) => {
  const loaded = importText(text);
  const analyzer = new Analyzer({});
  return { errors: loaded.errors, records: loaded.records.map((r) => ({ loaded: r, analysed: analyzer.analyze(r) })) };
};

test('error body: Ollama\'s {"error": "error parsing tool call: …"} is a failed record with stream-error@error-body', () => {
  const { errors, records } = analyse(OLLAMA);
  assert.deepEqual(errors, []);
  const [r] = records;
  assert.ok(r);
  assert.equal(r.loaded.source, 'error-body');
  assert.match(r.loaded.record.error ?? '', /^error parsing tool call: raw='ls -R\n'/u);
  assert.equal(r.loaded.record.meta?.errorBody, true);
  const found = r.analysed.diagnostics.filter((d) => d.kind === 'stream-error');
  assert.deepEqual(
    found.map((d) => [d.code, d.detail, d.severity]),
    [['TS031', 'error-body', 'error']],
  );
  assert.match(found[0]!.message, /^the server answered with an error body instead of a completion: "error parsing tool call/u);
});

test("error body: llama-server's body with a captured status; markup it quotes is the completion, so dropped-call names the call", () => {
  const body = {
    error: {
      code: 500,
      message:
        'Failed to parse input at pos 1360: <tool_call>\n<function=write>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>',
      type: 'server_error',
    },
    status: 500,
  };
  const { errors, records } = analyse(`${LLAMA_SERVER}\n${JSON.stringify(body)}`);
  assert.deepEqual(errors, []);
  assert.equal(records.length, 2);
  const [closer, quoted] = records;
  assert.equal(closer!.loaded.record.meta?.error_type, 'server_error');
  assert.equal(closer!.analysed.completionQuotedInError, true);
  assert.ok(closer!.analysed.diagnostics.some((d) => d.kind === 'stream-error' && d.detail === 'error-body'));
  assert.equal(quoted!.loaded.record.meta?.httpStatus, 500);
  const stream = quoted!.analysed.diagnostics.find((d) => d.kind === 'stream-error');
  assert.match(
    stream?.message ?? '',
    /^the server answered HTTP 500 with an error body instead of a completion: .*read here as the completion$/su,
  );
  const dropped = quoted!.analysed.diagnostics.filter((d) => d.kind === 'dropped-call');
  assert.deepEqual(
    dropped.map((d) => d.message),
    ["call 0 (write) is in the markup the server's error quotes: the request failed, and the client never received it"],
  );
});

test('error body: other JSON with an error key stays what it was', () => {
  for (const line of [
    '{"error": "x", "foo": 1}',
    '{"error": {"detail": "no message"}}',
    '{"error": {"message": "neither code nor type"}}',
    '{"error": "x", "status": "bad"}',
    '{"error": "x", "status": 500, "status_code": 500}',
    '{"error": ""}',
  ]) {
    const { errors, records } = analyse(line);
    assert.equal(records.length, 0, line);
    assert.match(errors[0]?.message ?? '', /not a recognised trace line/u, line);
  }
  // Importers that took their error lines before keep them: a native record, an Anthropic error, an SSE error event.
  const native = analyse('{"toolscope": 1, "id": "n1", "error": "boom"}').records[0]!;
  assert.equal(native.loaded.source, 'native');
  assert.ok(native.analysed.diagnostics.every((d) => d.detail !== 'error-body'));
  assert.equal(
    analyse('{"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}').records[0]?.loaded.source,
    'anthropic',
  );
  const sse = analyse('data: {"error": {"message": "boom", "type": "server_error", "code": 500}}').records[0]!;
  assert.equal(sse.loaded.source, 'sse');
  assert.ok(sse.analysed.diagnostics.some((d) => d.kind === 'stream-error' && d.detail === undefined));
});

test('error body: --fail-on error now fails on a file of engine error bodies', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-error-body-'));
  try {
    const path = join(dir, 'errors.jsonl');
    await writeFile(path, `${OLLAMA}\n${LLAMA_SERVER}\n`);
    let out = '';
    const sink = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
    assert.equal(await analyzeCommand([path], { json: true, guided: false, failOn: 'error' }, sink), 1);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { error?: string; diagnostics: Array<{ kind: string; detail?: string }> });
    assert.equal(lines.length, 2);
    assert.ok(lines.every((l) => l.diagnostics.some((d) => d.kind === 'stream-error' && d.detail === 'error-body')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
