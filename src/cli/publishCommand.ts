/**
 * `toolscope publish FILE… --to langfuse|phoenix|otlp`: analyses the traces as `analyze` does and sends one verdict
 * per finding kind and record to where the fleet already browses its traces (src/core/publish/ maps, src/net/publish/
 * sends). Records without the ids the target needs are counted and skipped, never guessed; records without findings
 * send nothing. `--dry-run` prints each request instead (headers by name only). The summary says what was accepted,
 * refused and skipped; the exit status is 1 when anything was refused.
 */
import { Analyzer } from '../core/analysis.ts';
import { publishRecord } from '../core/publish/verdicts.ts';
import type { TargetName } from '../core/publish/publishTarget.ts';
import { publishTarget } from '../core/publish/targets.ts';
import { readTraceItems } from '../io/trace/traceIndex.ts';
import { nodeServices } from '../io/nodeServices.ts';
import { sendBatch, scrub } from '../net/publish/publishClient.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';
import { expandInputs } from './analyzeCommand.ts';
import { InputError } from './inputError.ts';
import { publishEndpoint } from './publishEndpoints.ts';
import { toolVersion } from './toolVersion.ts';

export interface PublishOptions {
  to: TargetName;
  url?: string;
  dryRun?: boolean;
  /** Run the guided what-if too, as `analyze` does by default. */
  guided?: boolean;
  retries: number;
  /** Items per request, at most the target's own batch size. */
  batchSize?: number;
  /** For tests: scale the waits between retries. */
  retryDelayScale?: number;
  env?: NodeJS.ProcessEnv;
}

export interface PublishSummary {
  target: TargetName;
  records: number;
  /** Records without findings: nothing to send. */
  clean: number;
  /** Records with findings but without the ids the target needs, and the verdicts they held. */
  skippedRecords: number;
  skippedItems: number;
  unreadableLines: number;
  sent: number;
  accepted: number;
  refused: number;
  batches: number;
  refusedBatches: number;
}

export async function publishCommand(
  inputs: string[],
  options: PublishOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<{ code: number; summary: PublishSummary }> {
  const env = options.env ?? process.env;
  const endpoint = publishEndpoint(options.to, env, options.url, options.dryRun === true);
  const target = publishTarget(options.to, { timeUnixNano: `${BigInt(Date.now()) * 1_000_000n}`, version: toolVersion() });
  const batchSize = Math.max(1, Math.min(options.batchSize ?? target.batchSize, target.batchSize));
  const files = await expandInputs(inputs);
  const analyzer = new Analyzer({}, nodeServices());
  const say = (w: NodeJS.WritableStream, line: string) => w.write(terminalText(scrub(line, endpoint.secrets)) + '\n');
  const summary: PublishSummary = {
    target: options.to,
    records: 0,
    clean: 0,
    skippedRecords: 0,
    skippedItems: 0,
    unreadableLines: 0,
    sent: 0,
    accepted: 0,
    refused: 0,
    batches: 0,
    refusedBatches: 0,
  };

  let pending: unknown[] = [];
  let unreachable = false;
  const flush = async () => {
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    const body = target.body(items);
    summary.batches++;
    if (options.dryRun) {
      out.write(escapedJson({ method: 'POST', url: endpoint.url, headers: Object.keys(endpoint.headers), body }) + '\n');
      summary.sent += items.length;
      return;
    }
    const batch = summary.batches;
    if (unreachable) {
      // The server was not reachable, retries included: the rest are refused unsent rather than waited out again.
      summary.sent += items.length;
      summary.refused += items.length;
      summary.refusedBatches++;
      say(err, `batch ${batch}: ${items.length} refused: not sent, the server could not be reached`);
      return;
    }
    const outcome = await sendBatch(body, items.length, target.partialRefusal, {
      url: endpoint.url,
      headers: endpoint.headers,
      secrets: endpoint.secrets,
      retries: options.retries,
      delayScale: options.retryDelayScale,
      onRetry: (attempt, delayMs, why) => say(err, `batch ${batch}: ${why}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s`),
    });
    unreachable = outcome.unreachable;
    summary.sent += outcome.sent;
    summary.accepted += outcome.accepted;
    summary.refused += outcome.refused;
    if (outcome.refused > 0) {
      summary.refusedBatches++;
      say(err, `batch ${batch}: ${outcome.refused} of ${outcome.sent} refused: ${outcome.error ?? ''}`);
    }
  };

  for (const file of files) {
    try {
      for await (const item of readTraceItems(file)) {
        if (item.kind === 'error') {
          summary.unreadableLines++;
          say(err, `${file}:${item.error.line}: ${item.error.message}`);
          continue;
        }
        const outcome = await analyzer.analyzeGuarded(item.loaded, options.guided !== false);
        if (outcome.kind === 'error') {
          summary.unreadableLines++;
          say(err, `${file}:${outcome.error.line}: ${outcome.error.message}`);
          continue;
        }
        summary.records++;
        const record = publishRecord(file, item.loaded, outcome.analysed);
        if (record.verdicts.length === 0) {
          summary.clean++;
          continue;
        }
        const items = target.items(record);
        if (!items) {
          summary.skippedRecords++;
          summary.skippedItems += record.verdicts.length;
          continue;
        }
        for (const i of items) {
          pending.push(i);
          if (pending.length >= batchSize) await flush();
        }
      }
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`cannot read ${file}: ${(e as Error).message}`);
    }
  }
  await flush();

  const s = summary;
  const verb = options.dryRun ? 'would send' : 'sent';
  const lines = [
    `${s.target}: ${s.records} records, ${s.clean} without findings; ${verb} ${s.sent} in ${s.batches} requests` +
      (options.dryRun ? '' : `: ${s.accepted} accepted, ${s.refused} refused (${s.refusedBatches} requests)`),
  ];
  if (s.skippedRecords > 0)
    lines.push(`skipped ${s.skippedRecords} records with findings (${s.skippedItems} verdicts): no ${target.needs}`);
  if (s.unreadableLines > 0) lines.push(`${s.unreadableLines} lines could not be read or analysed`);
  for (const line of lines) say(options.dryRun ? err : out, line);
  return { code: s.refused > 0 ? 1 : 0, summary: s };
}
