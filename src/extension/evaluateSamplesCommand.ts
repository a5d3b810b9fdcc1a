/**
 * "Toolscope: Evaluate Samples…": a K2-Vendor-Verifier style batch over a samples file — every request replayed
 * with guided decoding off and/or on against an endpoint (the embedded simulator by default), with progress and
 * cancel — written as K2VV result files in a folder beside the samples (never into them), then opened in the
 * trace editor, whose Eval tab shows the figures side by side. Refused in untrusted workspaces.
 */
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runEval, type EvalTarget } from '../net/eval/evalRun.ts';
import { RunSetupError, type GuidedChoice } from '../net/replay/replayRun.ts';
import { loadSamples } from '../host/eval/loadSamples.ts';
import { summarize } from '../host/eval/k2vvMetrics.ts';
import { loadK2vvResults } from '../host/eval/loadResults.ts';
import { formatNames, getFormat } from '../core/formats/registry.ts';
import { ApiKeys, EMBEDDED_ENDPOINT } from './endpoints.ts';
import { activeTrace } from './replayRecordCommand.ts';
import { pickEndpoint } from './endpointPicker.ts';
import { TRACE_VIEW_TYPE } from './traceEditorProvider.ts';
import { trustedFor } from './workspaceTrust.ts';

/** The same bounds as `toolscope eval`'s defaults. */
const CONCURRENCY = 5;
const TIMEOUT_MS = 600_000;
const RETRIES = 5;

/** Where a run goes: `<samples>.toolscope-eval`, or the next free `-2`, `-3`… when the user starts afresh. */
function outDirFor(samples: string, n: number): string {
  const base = join(dirname(samples), `${basename(samples, '.jsonl')}.toolscope-eval`);
  return n <= 1 ? base : `${base}-${n}`;
}

export class EvaluateSamplesCommand {
  constructor(
    private readonly keys: ApiKeys,
    private readonly output: vscode.OutputChannel,
    /** The extension's version, written into every result line's run parameters. */
    private readonly version = 'dev',
  ) {}

  async run(target?: vscode.Uri): Promise<void> {
    if (!trustedFor('evaluation', "it sends the samples' requests to a server", 'evaluate')) return;
    const uri =
      target ??
      activeTrace() ??
      (
        await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { 'K2-Vendor-Verifier samples': ['jsonl'] },
          title: 'Samples to evaluate (chat requests, one per line)',
        })
      )?.[0];
    if (!uri) return;
    const { samples, errors } = await loadSamples(uri.fsPath);
    if (!samples.length) {
      void vscode.window.showErrorMessage(
        `Toolscope: ${basename(uri.fsPath)} holds no chat requests to evaluate${errors.length ? ` (${errors.length} unreadable lines)` : ''}.`,
      );
      return;
    }
    const endpointChoice = await pickEndpoint('Evaluate against which endpoint?');
    if (!endpointChoice) return;
    let hallucinate = 0;
    let format: string | undefined;
    if (endpointChoice === EMBEDDED_ENDPOINT) {
      const rate = await vscode.window.showQuickPick(
        [
          { label: '30 % broken answers', description: 'undeclared tools and schema breaks: what guided decoding fixes', value: 0.3 },
          { label: '10 % broken answers', value: 0.1 },
          { label: 'No broken answers', value: 0 },
        ],
        { title: 'The embedded endpoint is a simulator: how often should it answer with a broken call?', ignoreFocusOut: true },
      );
      if (!rate) return;
      hallucinate = rate.value;
      const written = await vscode.window.showQuickPick(
        formatNames().map((name) => {
          const format = getFormat(name);
          return {
            label: format.displayName,
            description: format.guided
              ? `guided on: ${format.guided.tagName ?? `xgrammar's ${format.guided.builtinStyle} tag`}`
              : 'no structural tag yet: guided on is refused',
            value: name,
          };
        }),
        { title: 'Which format should the simulated model write its tool calls in?', ignoreFocusOut: true },
      );
      if (!written) return;
      format = written.value;
    }
    const guided = await vscode.window.showQuickPick(
      [
        { label: 'Both', description: 'guided decoding off, then on', value: 'both' as GuidedChoice },
        { label: 'Off', value: 'off' as GuidedChoice },
        { label: 'On', value: 'on' as GuidedChoice },
      ],
      { title: 'Guided decoding', ignoreFocusOut: true },
    );
    if (!guided) return;
    let n = 1;
    let resume = false;
    if (existsSync(outDirFor(uri.fsPath, 1))) {
      const again = await vscode.window.showQuickPick(
        [
          { label: 'Resume', description: 'skip the samples already done there', value: 'resume' as const },
          { label: 'Start a new run', description: 'in a new folder; the earlier results stay', value: 'new' as const },
        ],
        { title: `${basename(outDirFor(uri.fsPath, 1))} exists`, ignoreFocusOut: true },
      );
      if (!again) return;
      resume = again.value === 'resume';
      if (!resume) while (existsSync(outDirFor(uri.fsPath, n))) n++;
    }
    const outDir = outDirFor(uri.fsPath, n);
    const runTarget: EvalTarget =
      endpointChoice === EMBEDDED_ENDPOINT
        ? { embedded: { hallucinate, seed: 0, ...(format ? { format } : {}) } }
        : { endpoint: endpointChoice, apiKey: await this.keys.get(endpointChoice.name) };
    let run;
    try {
      run = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Toolscope: evaluating ${basename(uri.fsPath)}`, cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const total = samples.length * (guided.value === 'both' ? 2 : 1);
          let done = 0;
          let failed = 0;
          return runEval({
            samples,
            samplesPath: uri.fsPath,
            target: runTarget,
            guided: guided.value,
            outDir,
            concurrency: CONCURRENCY,
            timeoutMs: TIMEOUT_MS,
            retries: RETRIES,
            redo: resume ? 'missing' : 'all',
            toolVersion: this.version,
            signal: abort.signal,
            onStart: (start) => {
              done += start.done;
              failed = 0;
            },
            onResult: (on, line) => {
              done++;
              if (line.status === 'failed') failed++;
              progress.report({
                increment: 100 / total,
                message: `guided ${on ? 'on' : 'off'}: ${done}/${total}${failed ? `, ${failed} failed` : ''}`,
              });
            },
          });
        },
      );
    } catch (err) {
      if (!(err instanceof RunSetupError)) throw err;
      void vscode.window.showErrorMessage(`Toolscope: ${err.message}`);
      return;
    }
    const files = run.runs.map((r) => r.file);
    if (!files.length) return;
    this.output.appendLine(`Evaluation of ${uri.fsPath} → ${outDir}`);
    for (const f of files) {
      const s = summarize((await loadK2vvResults(f)).results);
      const acc = s.schema_accuracy === null ? '—' : `${(s.schema_accuracy * 100).toFixed(2)} %`;
      this.output.appendLine(
        `  ${basename(f)}: ${s.success_count + s.failure_count} requests, ${s.finish_tool_calls} tool_calls, ${s.schema_validation_error_count} schema errors, schema accuracy ${acc}`,
      );
    }
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(files[files.length - 1] as string), TRACE_VIEW_TYPE);
  }
}
