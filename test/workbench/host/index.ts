/**
 * Extension-host tests: loaded by code-server's extension host as `extensionTestsPath`, with Toolscope loaded from
 * the repository as `extensionDevelopmentPath`, against the real `vscode` API. `run()` writes its results to the
 * file the harness (test/workbench/extensionHost.test.ts) reads. The harness also answers the quick picks and
 * input boxes the commands open (see `expectPrompts`), the way a user would, in the workbench page.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { startServer } from '../../../src/net/server/openAiServer.ts';
import { summarize } from '../../../src/host/eval/k2vvMetrics.ts';
import { loadK2vvResults } from '../../../src/host/eval/loadResults.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { config, expectPrompts, figures, promptsAnswered, runAll, test, waitFor } from './runner.ts';

const EXTENSION_ID = 'toolscope.toolscope';
const VIEW_TYPE = 'toolscope.trace';
const KIMI = 'kimi-k2-raw-completions.jsonl';

function ws(name: string): vscode.Uri {
  return vscode.Uri.file(join(config().workspace, name));
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function activeTabInput(): unknown {
  return vscode.window.tabGroups.activeTabGroup.activeTab?.input;
}

async function waitForCustomEditor(uri: vscode.Uri): Promise<vscode.TabInputCustom> {
  return waitFor(`the Toolscope editor on ${uri.fsPath}`, () => {
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.fsPath === uri.fsPath && tab.input.viewType === VIEW_TYPE)
          return tab.input;
      }
    }
    return null;
  });
}

async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Lets the workbench finish moving focus around (editors that open or close) before a command asks something. */
async function settle(ms = 750): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Problems the analyze command put on a file (it waits on its own notification, so it is not awaited). */
async function analyze(uri: vscode.Uri, previous?: readonly vscode.Diagnostic[]): Promise<readonly vscode.Diagnostic[]> {
  void vscode.commands.executeCommand('toolscope.analyzeActiveFile', uri);
  return waitFor(`Problems for ${uri.fsPath}`, () => {
    const d = vscode.languages.getDiagnostics(uri);
    return d.length > 0 &&
      d !== previous &&
      JSON.stringify(d.map((x) => [x.code, x.range.start.line])) !== JSON.stringify(previous?.map((x) => [x.code, x.range.start.line]))
      ? d
      : null;
  });
}

function recordLine(file: string, id: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(`"id":"${id}"`) || l.includes(`"id": "${id}"`));
  assert.ok(i >= 0, `record ${id} not found in ${file}`);
  return i + 1;
}

// ---- both modes --------------------------------------------------------------------------------------

function commonTests(): void {
  test('the extension is found and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    figures.activeBeforeTests = ext.isActive;
    const t0 = performance.now();
    await ext.activate();
    figures.activationMs = Math.round(performance.now() - t0);
    assert.equal(ext.isActive, true);
  });

  test('every contributed command is registered', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    const contributed = (ext?.packageJSON.contributes.commands as Array<{ command: string }>).map((c) => c.command);
    assert.ok(contributed.length >= 10, `only ${contributed.length} commands contributed`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    figures.commands = contributed.length;
  });

  test('vscode.openWith opens a sample in the Toolscope editor (viewType toolscope.trace)', async () => {
    await closeAllEditors();
    const uri = ws(KIMI);
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const input = await waitForCustomEditor(uri);
    assert.equal(input.viewType, VIEW_TYPE);
    const active = activeTabInput();
    assert.ok(active instanceof vscode.TabInputCustom && active.viewType === VIEW_TYPE, 'the Toolscope editor is the active tab');
  });

  test('Analyze Trace with no file analyses the trace in the active Toolscope editor', async () => {
    const uri = ws('vllm-stream.sse.jsonl');
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    await waitForCustomEditor(uri);
    void vscode.commands.executeCommand('toolscope.analyzeActiveFile');
    const problems = await waitFor('Problems for the active trace', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length ? d : null;
    });
    assert.ok(
      problems.some((d) => d.source === 'toolscope content-leak'),
      problems.map((d) => d.source).join(', '),
    );
  });

  test("Analyze Trace puts the findings in the Problems panel at their records' lines", async () => {
    const uri = ws(KIMI);
    const diagnostics = await analyze(uri);
    const line = recordLine(uri.fsPath, 'schema-violations');
    const schema = diagnostics.filter((d) => d.code === 'TS005' && d.range.start.line === line - 1);
    assert.ok(schema.length >= 1, `no TS005 at line ${line}: ${diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`).join(' ')}`);
    assert.equal(schema[0]?.severity, vscode.DiagnosticSeverity.Error);
    assert.match(String(schema[0]?.source), /^toolscope schema-violation$/);
    assert.match(schema[0]?.message ?? '', /\(record schema-violations\)$/);
    for (const d of diagnostics) assert.match(String(d.code), /^TS\d{3}$/);
    // Unreadable lines are problems too, at their own lines.
    const malformed = await analyze(ws('malformed-lines.jsonl'));
    const unreadable = malformed.filter((d) => d.message.startsWith('unreadable line')).map((d) => d.range.start.line + 1);
    assert.deepEqual(unreadable.sort(), [2, 3, 5]);
    figures.problemsOnKimiSample = diagnostics.length;
  });
}

// ---- trusted -------------------------------------------------------------------------------------------

function trustedTests(): void {
  test('the workspace is trusted', () => assert.equal(vscode.workspace.isTrusted, true));

  test('Open Sample Trace opens a copy of a bundled sample from global storage', async () => {
    await closeAllEditors();
    const uri = (await vscode.commands.executeCommand('toolscope.openSample', KIMI)) as vscode.Uri | undefined;
    assert.ok(uri, 'no sample opened');
    assert.ok(uri.fsPath.includes('globalStorage') && uri.fsPath.endsWith(KIMI), uri.fsPath);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.equal(sha256(uri.fsPath), sha256(join(ext!.extensionPath, 'samples', KIMI)));
    await waitForCustomEditor(uri);
  });

  test('settings: contributed defaults, and toolscope.format reaches the analysis', async () => {
    const cfg = vscode.workspace.getConfiguration('toolscope');
    assert.equal(cfg.inspect('format')?.defaultValue, 'auto');
    assert.deepEqual(cfg.inspect('endpoints')?.defaultValue, []);
    assert.equal(cfg.get('format'), 'auto');
    const uri = ws('other-formats.jsonl');
    const auto = await analyze(uri);
    await cfg.update('format', 'kimi_k2', vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(vscode.workspace.getConfiguration('toolscope', uri).get('format'), 'kimi_k2');
      const forced = await analyze(uri, auto);
      const codes = (ds: readonly vscode.Diagnostic[]) => ds.map((d) => `${d.code}@${d.range.start.line}`).join(' ');
      assert.notEqual(codes(forced), codes(auto), 'reading Hermes/Qwen/DeepSeek/Harmony records as Kimi K2 changes the findings');
    } finally {
      await cfg.update('format', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('Replay Record against the embedded endpoint writes <trace>.replays.jsonl beside the original, which stays byte for byte', async () => {
    await closeAllEditors();
    const uri = ws(KIMI);
    const before = sha256(uri.fsPath);
    const replays = join(config().workspace, 'kimi-k2-raw-completions.replays.jsonl');
    assert.equal(existsSync(replays), false);
    // From the explorer's context menu (the file as argument). With no editor opening meanwhile: an editor that
    // finishes opening takes the focus, which closes a quick pick. (The e2e tests replay from the active editor.)
    await settle();
    expectPrompts(
      { title: 'Replay which record?', kind: 'pick', answer: 'clean-single-call' },
      { title: 'Replay against which endpoint?', kind: 'pick', answer: 'Embedded endpoint' },
      { title: 'Replay mode', kind: 'pick', answer: 'Chat' },
      { title: 'Guided decoding', kind: 'pick', answer: 'Both' },
    );
    const t0 = performance.now();
    await vscode.commands.executeCommand('toolscope.replayRecord', uri);
    await promptsAnswered();
    figures.replayBothMs = Math.round(performance.now() - t0);
    assert.equal(sha256(uri.fsPath), before, 'the original trace changed');
    assert.ok(existsSync(replays), 'no replays file beside the trace');
    const { records } = await loadAll(replays);
    assert.equal(records.length, 2);
    const metas = records.map((r) => r.record.meta as Record<string, unknown>);
    assert.deepEqual(
      metas.map((m) => m.guided),
      [false, true],
    );
    for (const m of metas) {
      assert.equal(m.replayOf, 'clean-single-call');
      assert.equal(m.source, 'replay');
      assert.equal(m.status, 200);
    }
    // The replays open beside the trace, in the Toolscope editor.
    await waitForCustomEditor(vscode.Uri.file(replays));
    assert.deepEqual(
      readdirSync(config().workspace).filter((f) => f.includes('.replays.')),
      ['kimi-k2-raw-completions.replays.jsonl'],
    );
  });

  test('a workspace value of toolscope.endpoints is never read (a cloned repository cannot redirect replays)', async () => {
    const dir = join(config().workspace, '.vscode');
    const file = join(dir, 'settings.json');
    await mkdir(dir, { recursive: true });
    // toolscope.format (a resource setting) tells when VS Code has read the file.
    await writeFile(
      file,
      JSON.stringify({
        'toolscope.format': 'hermes',
        'toolscope.endpoints': [{ name: 'repo-endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'x' }],
        'toolscope.proxyPort': 9,
      }),
    );
    try {
      await waitFor('the workspace settings file read', () => vscode.workspace.getConfiguration('toolscope').get('format') === 'hermes');
      const cfg = vscode.workspace.getConfiguration('toolscope');
      // An application setting: VS Code itself leaves the workspace value out, and Toolscope reads the user value only.
      assert.deepEqual(cfg.get('endpoints'), []);
      assert.equal(cfg.inspect('endpoints')?.globalValue, undefined);
      assert.equal(cfg.get('proxyPort'), 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await waitFor('the workspace settings file gone', () => vscode.workspace.getConfiguration('toolscope').get('format') === 'auto');
    }
  });

  test('Set API Key keeps the key in SecretStorage (never in settings) and replay sends it', async () => {
    await closeAllEditors();
    await settle();
    // An OpenAI-compatible endpoint (the embedded simulator) behind a proxy that records the request headers.
    const trace = ws('keyed.jsonl');
    await copyFile(ws(KIMI).fsPath, trace.fsPath);
    const { records } = await loadAll(trace.fsPath);
    const sim = await startServer({ script: records.map((r) => r.record) });
    const seen: IncomingHttpHeaders[] = [];
    const proxy = createServer((req, res) => {
      seen.push(req.headers);
      const target = new URL(req.url ?? '/', sim.url);
      const up = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as { port: number }).port;
    const secret = `sk-toolscope-test-${Date.now().toString(36)}`;
    const cfg = vscode.workspace.getConfiguration('toolscope');
    try {
      await cfg.update(
        'endpoints',
        [{ name: 'keyed-endpoint', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'toolscope-sim-kimi-k2', engine: 'vllm' }],
        vscode.ConfigurationTarget.Global,
      );
      await waitFor('the endpoint setting', () =>
        JSON.stringify(vscode.workspace.getConfiguration('toolscope').get('endpoints')).includes('keyed-endpoint'),
      );
      expectPrompts(
        { title: 'Set the API key for which endpoint?', kind: 'pick', answer: 'keyed-endpoint' },
        { title: 'API key for keyed-endpoint', kind: 'input', answer: secret },
      );
      await vscode.commands.executeCommand('toolscope.setApiKey');
      await promptsAnswered();
      // Not in any settings file, nor in what the configuration API returns.
      const settingsFiles = [
        join(config().userDataDir, 'User', 'settings.json'),
        join(config().workspace, '.vscode', 'settings.json'),
      ].filter((f) => existsSync(f));
      assert.ok(settingsFiles.length >= 1, 'the endpoint went to the user settings file');
      for (const f of settingsFiles) assert.ok(!readFileSync(f, 'utf8').includes(secret), `${f} holds the API key`);
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('toolscope')).includes(secret));
      // Read back from SecretStorage by the replay, and sent to the endpoint.
      expectPrompts(
        { title: 'Replay which record?', kind: 'pick', answer: 'clean-parallel-calls' },
        { title: 'Replay against which endpoint?', kind: 'pick', answer: 'keyed-endpoint' },
        { title: 'Replay mode', kind: 'pick', answer: 'Chat' },
        { title: 'Guided decoding', kind: 'pick', answer: 'Off' },
      );
      await vscode.commands.executeCommand('toolscope.replayRecord', trace);
      await promptsAnswered();
      const auth = seen.map((h) => h.authorization).filter(Boolean);
      assert.ok(auth.length >= 1, `no request reached the endpoint (${seen.length} requests)`);
      assert.equal(auth[0], `Bearer ${secret}`);
      // …and never written into the replays.
      const written = await readFile(join(config().workspace, 'keyed.replays.jsonl'), 'utf8');
      assert.ok(written.includes('clean-parallel-calls'), 'the replay was written');
      assert.ok(!written.includes(secret), 'the API key reached the replays file');
    } finally {
      await cfg.update('endpoints', undefined, vscode.ConfigurationTarget.Global);
      await new Promise((r) => proxy.close(r));
      await sim.close();
    }
  });
  test('Evaluate Samples… (embedded endpoint, 30 % broken answers, guided both) writes K2VV results beside the samples and opens them', async () => {
    await closeAllEditors();
    await settle();
    const samples = ws('k2vv-requests.jsonl');
    const before = sha256(samples.fsPath);
    const outDir = join(config().workspace, 'k2vv-requests.toolscope-eval');
    assert.equal(existsSync(outDir), false);
    expectPrompts(
      { title: 'Evaluate against which endpoint?', kind: 'pick', answer: 'Embedded endpoint' },
      { title: 'how often should it answer with a broken call?', kind: 'pick', answer: '30 % broken answers' },
      { title: 'Which format should the simulated model write', kind: 'pick', answer: 'Kimi K2' },
      { title: 'Guided decoding', kind: 'pick', answer: 'Both' },
    );
    const t0 = performance.now();
    // From the explorer's context menu (the file as argument); the command returns once the results are open.
    await vscode.commands.executeCommand('toolscope.evaluateSamples', samples);
    await promptsAnswered();
    figures.evaluateBothMs = Math.round(performance.now() - t0);
    assert.equal(sha256(samples.fsPath), before, 'the samples changed');
    assert.deepEqual(readdirSync(outDir).sort(), ['results.guided-off.jsonl', 'results.guided-on.jsonl']);
    const requests = readFileSync(samples.fsPath, 'utf8').split('\n').filter(Boolean).length;
    const errors: Record<string, number> = {};
    for (const run of ['off', 'on']) {
      const file = join(outDir, `results.guided-${run}.jsonl`);
      // K2-Vendor-Verifier's line format: one result per request, with its keys.
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(lines.length, requests, `${file}: one line per request`);
      for (const l of lines) {
        for (const k of ['data_index', 'request', 'hash', 'status', 'finish_reason', 'tool_calls_valid', 'last_run_at', 'duration_ms'])
          assert.ok(k in l, `${file}: a line without ${k}`);
        assert.match(String(l.hash), /^[0-9a-f]{32}$/);
        assert.equal(l.status, 'success');
      }
      const { results, errors: unreadable } = await loadK2vvResults(file);
      assert.deepEqual(unreadable, [], `${file} reads back as K2VV results`);
      const s = summarize(results);
      assert.equal(s.success_count, requests);
      errors[run] = s.schema_validation_error_count;
    }
    assert.ok((errors.off ?? 0) > 0, `guided off: ${errors.off} schema errors (the simulator breaks 30 % of the answers)`);
    assert.equal(errors.on, 0, 'guided on: no schema errors');
    figures.evaluateSchemaErrorsOff = errors.off ?? -1;
    // The last run opens in the Toolscope editor (the webview starts on its Eval tab; the e2e tests look at it).
    await waitForCustomEditor(vscode.Uri.file(join(outDir, 'results.guided-on.jsonl')));
  });
}

// ---- untrusted -----------------------------------------------------------------------------------------

function untrustedTests(): void {
  test('the workspace is untrusted (restricted mode)', () => assert.equal(vscode.workspace.isTrusted, false));

  test('Replay Record is refused with a message, and nothing is sent or written', async () => {
    const uri = ws(KIMI);
    const before = sha256(uri.fsPath);
    await vscode.commands.executeCommand('notifications.clearAll');
    const t0 = performance.now();
    // No prompt may open: the command refuses before asking anything.
    await vscode.commands.executeCommand('toolscope.replayRecord', uri);
    assert.ok(performance.now() - t0 < 10_000);
    assert.equal(sha256(uri.fsPath), before);
    assert.deepEqual(
      readdirSync(config().workspace).filter((f) => f.includes('.replays.')),
      [],
    );
    // The harness reads the warning in the notification centre once the results are in.
  });
}

export async function run(): Promise<void> {
  const { mode } = config();
  commonTests();
  if (mode === 'trusted') trustedTests();
  else untrustedTests();
  await runAll(mode);
}
