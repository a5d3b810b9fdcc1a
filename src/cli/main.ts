/** The `toolscope` command line: thin glue from arguments to src/core. */
import { endQuietlyOnBrokenPipe } from './brokenPipe.ts';
import { Command, CommanderError, Option } from 'commander';
import { formatNames, getFormat } from '../core/formats/registry.ts';
import { basename, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { TokenizerPaths } from '../core/formats/tokenizerChoice.ts';
import { InputError } from './inputError.ts';
import { startupMark } from '../core/util/startupMarks.ts';
import { isAnalyzeWorker, runAnalyzeWorker } from './analyzeWorker.ts';
import { isReportWorker } from './reportWorkerProtocol.ts';
import { DEFAULT_MAX_COMPLETION_MB, type AnalysisOptions } from '../core/analysis.ts';
import type { GuidedChoice } from './replayCommand.ts';
import type { ReplayMode } from '../net/replay/replay.ts';
import { engineGenerations } from '../core/formats/engineGenerations.ts';
import { SEVERITY_RANK, type Severity } from '../core/diagnostics/diagnostic.ts';
import { DIAGNOSTIC_KINDS, type DiagnosticKind } from '../core/diagnostics/registry.ts';
import type { RecordSummary } from '../shared/protocol.ts';
import { terminalText } from '../host/report/terminalText.ts';
import type { VllmGeneration } from '../core/formats/engineRun.ts';

/** `--delta-tokens N|recorded`: tokens per delta for a vLLM profile, or the record's own grouping. */
function parseDeltaTokens(value: string): number | 'recorded' {
  if (value === 'recorded') return value;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(`--delta-tokens takes a whole number of tokens per delta (1 or more) or "recorded", got "${value}"`);
  return n;
}

/** `--ignore KIND[,KIND]`: kinds whose findings are silenced (counted, not listed); an unknown kind is a usage error. */
function parseIgnore(value: string | undefined): DiagnosticKind[] | undefined {
  if (value === undefined) return undefined;
  const kinds = value
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const unknown = kinds.filter((k) => !(k in DIAGNOSTIC_KINDS));
  if (unknown.length || !kinds.length)
    throw new InputError(
      `--ignore takes diagnostic kinds separated by commas (e.g. content-leak,call-in-think); unknown: ${unknown.join(', ') || '(none given)'}`,
    );
  return kinds as DiagnosticKind[];
}

/** `--vllm-reasoning-parser on|off`: whether the profile's server runs `--reasoning-parser kimi_k2`. */
const vllmReasoningParserOption = () =>
  new Option(
    '--vllm-reasoning-parser <on|off>',
    'with --vllm-profile: the server runs the kimi_k2 reasoning parser of that generation (on, the default) or none (off: the think text reaches content)',
  ).choices(['on', 'off']);

function reasoningParserFlag(value: string | undefined, profile: VllmGeneration | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (!profile) throw new InputError('--vllm-reasoning-parser needs --vllm-profile');
  return value === 'on';
}

/** `--jobs N`: worker threads for `analyze` over several files. */
function parseJobs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`--jobs takes a whole number of threads (1 or more), got "${value}"`);
  return n;
}

/** `--max-completion-mb N`: the size limit of a completion, in million characters (about MB). */
function parseMaxCompletionMB(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new InputError(`--max-completion-mb takes a positive number (million characters, about MB), got "${value}"`);
  return n;
}

const maxCompletionOption = () =>
  new Option(
    '--max-completion-mb <n>',
    `analyse longer completions without the per-token view, the what-if and the vLLM profile (a record-too-large finding; default ${DEFAULT_MAX_COMPLETION_MB})`,
  ).argParser(parseMaxCompletionMB);

const vllmProfileOption = () =>
  new Option(
    '--vllm-profile <generation>',
    "also show what this vLLM generation's Kimi K2 tool parser would have streamed (vllm-divergence findings)",
  ).choices(engineGenerations());

/** A chat template named on the command line, read once. */
async function readTemplate(path: string | undefined): Promise<{ source: string; label: string } | undefined> {
  if (!path) return undefined;
  try {
    return { source: await readFile(path, 'utf8'), label: basename(path) };
  } catch (err) {
    throw new InputError(`cannot read the chat template ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** `--tokenizer PATH`: the user's model folder or tokenizer file, for every record (checked before any work). */
function tokenizerPaths(path: string | undefined): TokenizerPaths | undefined {
  if (path === undefined) return undefined;
  if (!existsSync(path)) throw new InputError(`--tokenizer: no such file or directory: ${path}`);
  return { any: path };
}

const TOKENIZER_HELP =
  "your model's tokenizer for completions recorded without tokens: a model folder (tiktoken.model + tokenizer_config.json, or tokenizer.json) or a file (tokenizer.json, tiktoken.model, .gguf / Ollama blob)";

/** Toolscope's own tag on the wire in the shape asked for; without one, the engine's default way (guidedRequest.ts). */
/** Every format's structural-tag shapes (Kimi K2: xgrammar-kimi, pr36891; the others: xgrammar's own). */
function tagShapes(): string[] {
  return [...new Set(formatNames().flatMap((name) => getFormat(name).guided?.shapes ?? []))];
}

declare const TOOLSCOPE_VERSION: string | undefined;

const toolVersion = () => (typeof TOOLSCOPE_VERSION === 'string' ? TOOLSCOPE_VERSION : '0.0.0-dev');

/** The flags analyze and report (and the editor's settings) share: how records are analysed and which findings count. */
interface AnalysisFlags {
  format?: string;
  thinkOpen?: boolean;
  recoverRawFallback?: boolean;
  verbose?: boolean;
  guided: boolean;
  template?: string;
  vllmProfile?: VllmGeneration;
  deltaTokens?: string;
  vllmReasoningParser?: string;
  tokenizer?: string;
  ignore?: string;
  failOn?: Severity;
  maxCompletionMb?: number;
}

/** Declares the shared flags once, for every command that analyses traces. */
function withAnalysisOptions(command: Command): Command {
  return command
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or worse exists').choices(['error', 'warning']))
    .addOption(new Option('--format <name>', 'tool-call format (default: detected per record)').choices(formatNames()))
    .option('--think-open', 'completions start inside <think> (the template opened it in the prompt)')
    .option('--recover-raw-fallback', 'turn `functions.name:0 {json}` written without special tokens into calls')
    .option('-v, --verbose', 'also list info-level findings')
    .option('--no-guided', 'skip the guided-decoding what-if (xgrammar over each completion whose format has a structural tag)')
    .option('--template <file>', "your model's chat template: requests recorded without a prompt are rendered with it and checked")
    .addOption(vllmProfileOption())
    .option('--delta-tokens <n>', 'with --vllm-profile: tokens per delta (default 1), or "recorded" for the grouping the record shows')
    .option('--tokenizer <path>', TOKENIZER_HELP)
    .addOption(vllmReasoningParserOption())
    .option('--ignore <kinds>', 'silence these diagnostic kinds (comma-separated): counted per kind, not listed')
    .addOption(maxCompletionOption());
}

/** The analysis the shared flags ask for (usage errors thrown before any work). */
async function analysisOptionsFrom(opts: AnalysisFlags): Promise<AnalysisOptions> {
  if (opts.deltaTokens !== undefined && !opts.vllmProfile) throw new InputError('--delta-tokens needs --vllm-profile');
  return {
    format: opts.format,
    startInReasoning: opts.thinkOpen,
    recoverRawFallback: opts.recoverRawFallback,
    guided: opts.guided,
    template: await readTemplate(opts.template),
    vllmProfile: opts.vllmProfile,
    deltaTokens: opts.deltaTokens === undefined ? undefined : parseDeltaTokens(opts.deltaTokens),
    tokenizers: tokenizerPaths(opts.tokenizer),
    vllmReasoningParser: reasoningParserFlag(opts.vllmReasoningParser, opts.vllmProfile),
    ignore: parseIgnore(opts.ignore),
    maxCompletionMB: opts.maxCompletionMb,
  };
}

/** What a report holds, in a line: findings by severity (info only with -v), and with -v each record that has any. */
function reportFindings(summaries: readonly RecordSummary[], verbose: boolean): string {
  const shown: Severity[] = verbose ? ['error', 'warning', 'info'] : ['error', 'warning'];
  const total = (s: Severity) => summaries.reduce((n, r) => n + r.counts[s], 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  let out = `Findings: ${shown.map((s) => plural(total(s), s === 'info' ? 'info finding' : s)).join(', ')}\n`;
  if (!verbose) return out;
  for (const r of summaries) {
    const counts = shown.filter((s) => r.counts[s] > 0).map((s) => plural(r.counts[s], s === 'info' ? 'info finding' : s));
    if (!counts.length) continue;
    const kinds = Object.keys(r.kinds).join(', ');
    out += `  ${r.file ? `${r.file}:` : 'line '}${r.line} ${r.id}: ${counts.join(', ')} (${kinds})\n`;
  }
  return out;
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('toolscope')
    .description('See exactly what happened inside an LLM tool call.')
    .version(typeof TOOLSCOPE_VERSION === 'string' ? TOOLSCOPE_VERSION : '0.0.0-dev')
    .showHelpAfterError()
    .exitOverride();

  const analyze = program
    .command('analyze')
    .description('parse every record of traces (files, directories, or - for standard input) and report tool-call diagnostics')
    .argument('<paths...>', 'trace files, directories of trace files (.jsonl .json .ndjson .sse .log .txt), or - for standard input')
    .option('--json', 'print JSON Lines, one object per record (and per unreadable line)')
    .option('--junit <file>', 'also write JUnit XML: one test case per record, failing at the --fail-on severity (default error)')
    .option('--sarif <file>', 'also write SARIF 2.1.0: one result per finding, at the trace file and line (GitHub code scanning)')
    .option('--jobs <n>', 'worker threads for many files or a big one (default: one per core for 8 MB or more; 1: one thread)', parseJobs);
  withAnalysisOptions(analyze).action(
    async (paths: string[], opts: AnalysisFlags & { jobs?: number; json?: boolean; junit?: string; sarif?: string }) => {
      const { analyzeCommand } = await import('./analyzeCommand.ts');
      process.exitCode = await analyzeCommand(
        paths,
        {
          ...(await analysisOptionsFrom(opts)),
          json: opts.json,
          failOn: opts.failOn,
          verbose: opts.verbose,
          junit: opts.junit,
          sarif: opts.sarif,
          toolVersion: toolVersion(),
          jobs: opts.jobs,
          // Nothing analyze prints comes from the per-token timeline (the report's editor shows it).
          timeline: false,
        },
        process.stdout,
      );
    },
  );
  program
    .command('tokens')
    .description(
      "print each record's completion tokens with their ids, and where the ids come from (recorded, re-encoded by the model's tokenizer, approximate)",
    )
    .argument('<paths...>', 'trace files or directories of .jsonl files')
    .option('--json', 'one JSON object per record: {"id", "line", "tokenizer", "source", "exact", "tokens": [{"text", "id"}]}')
    .option('--tokenizer <path>', TOKENIZER_HELP)
    .addOption(new Option('--format <name>', 'tool-call format (default: detected per record)').choices(formatNames()))
    .action(async (paths: string[], opts: { json?: boolean; tokenizer?: string; format?: string }) => {
      const { tokensCommand } = await import('./tokensCommand.ts');
      process.exitCode = await tokensCommand(
        paths,
        { json: opts.json, format: opts.format, tokenizers: tokenizerPaths(opts.tokenizer) },
        process.stdout,
      );
    });
  const report = program
    .command('report')
    .description('write the trace editor for traces (files or directories) as one self-contained HTML file')
    .argument('<paths...>', 'trace files, directories of trace files (.jsonl .json .ndjson .sse .log .txt), or - for standard input')
    .requiredOption('-o, --out <file>', 'where to write the HTML report')
    .option('--open', 'open the report in the desktop browser when there is one')
    .option('--jobs <n>', 'worker threads for many files (default: one per core for 8 MB or more; 1: one thread)', parseJobs);
  withAnalysisOptions(report).action(async (paths: string[], opts: AnalysisFlags & { out: string; open?: boolean; jobs?: number }) => {
    const { openInBrowser, writeReport } = await import('./reportCommand.ts');
    const { records, bytes, summaries } = await writeReport(paths, opts.out, { ...(await analysisOptionsFrom(opts)), jobs: opts.jobs });
    const where = resolve(opts.out);
    process.stdout.write(`Report: ${where} (${records} records, ${(bytes / 1024).toFixed(0)} KB)\n`);
    process.stdout.write(reportFindings(summaries, opts.verbose ?? false));
    if (opts.open && openInBrowser(where)) process.stdout.write('Opened in your browser.\n');
    if (opts.failOn && summaries.some((r) => r.worst !== null && SEVERITY_RANK[r.worst] >= SEVERITY_RANK[opts.failOn as Severity]))
      process.exitCode = 1;
  });
  program
    .command('replay')
    .description('replay recorded requests against an endpoint (the embedded one by default), guided decoding off/on/both')
    .argument('<trace>', 'the trace holding the request')
    .option('--record <id...>', 'record id(s) to replay (default: the first record with a request)')
    .option('--endpoint <url>', 'OpenAI-compatible base URL (default: start the embedded endpoint in-process)')
    .option('--model <name>', 'model name to send')
    .addOption(new Option('--engine <engine>', 'how guided decoding is requested').choices(['vllm', 'sglang', 'openai']).default('vllm'))
    .option('--api-key-env <var>', 'environment variable holding the API key', 'TOOLSCOPE_API_KEY')
    .addOption(new Option('--guided <mode>', 'guided decoding').choices(['off', 'on', 'both']).default('off'))
    .addOption(
      new Option('--mode <mode>', 'chat (/v1/chat/completions) or completions (raw text via client-side template)')
        .choices(['chat', 'completions'])
        .default('chat'),
    )
    .option('--template <file>', 'chat template (.jinja) for completions mode')
    .addOption(
      new Option(
        '--tag-shape <shape>',
        "also send the record's format's structural tag in this shape (vLLM: beside strict tools; SGLang and completions mode always send one); a shape of another format leaves the record's default",
      ).choices(tagShapes()),
    )
    .option('--out <file>', 'where to append the replays (default: <trace>.replays.jsonl beside it)')
    .option('--json', 'print the written records as JSON Lines')
    .option('--timeout <seconds>', 'per replay, retries and their waits included', (v) => Number(v), 600)
    .option('--retries <n>', 'retries on 429/5xx/connection errors (waits: min(2·2^n, 60) s, Retry-After up to 60 s)', (v) => Number(v), 2)
    .option('--max-answer <MB>', 'largest answer read (decoded); past it the replay fails and keeps what came', (v) => Number(v), 64)
    .action(
      async (
        trace: string,
        opts: {
          record?: string[];
          endpoint?: string;
          model?: string;
          engine: string;
          apiKeyEnv: string;
          guided: GuidedChoice;
          mode: ReplayMode;
          template?: string;
          out?: string;
          json?: boolean;
          timeout: number;
          retries: number;
          maxAnswer: number;
          tagShape?: string;
        },
      ) => {
        if (!(opts.timeout > 0)) throw new InputError('--timeout takes a positive number of seconds');
        if (!(opts.maxAnswer > 0)) throw new InputError('--max-answer takes a positive number of MB');
        const { parseEngine, replayCommand } = await import('./replayCommand.ts');
        process.exitCode = await replayCommand(
          trace,
          {
            records: opts.record,
            endpoint: opts.endpoint,
            model: opts.model,
            engine: parseEngine(opts.engine),
            apiKeyEnv: opts.apiKeyEnv,
            guided: opts.guided,
            mode: opts.mode,
            template: opts.template,
            out: opts.out,
            json: opts.json,
            timeoutS: opts.timeout,
            retries: opts.retries,
            maxAnswerMb: opts.maxAnswer,
            tagShape: opts.tagShape,
          },
          process.stdout,
        );
      },
    );

  const evalCmd = program
    .command('eval')
    .description('K2-Vendor-Verifier compatible evaluation: run samples (default) or summarize results');
  evalCmd
    .command('run', { isDefault: true })
    .description('replay K2VV-style samples against an endpoint with guided decoding off/on/both')
    .argument('<samples>', 'chat requests, one per line (the K2VV sample format)')
    .option('--endpoint <url>', 'OpenAI-compatible base URL (default: the embedded endpoint)')
    .option('--model <name>', 'model name to send')
    .addOption(new Option('--engine <engine>', 'how guided decoding is requested').choices(['vllm', 'sglang', 'openai']).default('vllm'))
    .option('--api-key-env <var>', 'environment variable holding the API key', 'TOOLSCOPE_API_KEY')
    .addOption(new Option('--guided <mode>', 'guided decoding').choices(['off', 'on', 'both']).default('both'))
    .option('--concurrency <n>', 'requests in flight', (v) => Number(v), 5)
    .option('--timeout <seconds>', 'per request, retries and their waits included', (v) => Number(v), 600)
    .option('--max-answer <MB>', 'largest answer read per request (decoded); past it the request fails', (v) => Number(v), 64)
    .option('--limit <k>', 'only the first k samples', (v) => Number(v))
    .option('--out <dir>', 'where results.guided-off/on.jsonl go', 'toolscope-eval')
    .option('--resume', 'skip samples already done in the output files')
    .option('--reference <results>', 'official results for tool-call trigger F1')
    .option('--hallucinate <rate>', 'embedded endpoint only: share of broken answers', (v) => Number(v))
    .option('--seed <n>', 'embedded endpoint only: seed for --hallucinate', (v) => Number(v), 0)
    .addOption(
      new Option('--format <name>', 'embedded endpoint only: the tool-call format its simulated model writes (default: kimi_k2)').choices(
        formatNames(),
      ),
    )
    .addOption(
      new Option(
        '--tag-shape <shape>',
        "also send the record's format's structural tag in this shape (vLLM: beside strict tools; SGLang and completions mode always send one); a shape of another format leaves the record's default",
      ).choices(tagShapes()),
    )
    .option('--repeat <n>', 'runs per sample, interleaved (figures as mean ± sd, min–max)', (v) => Number(v), 1)
    .option('--rerun-failed', 'only the samples whose latest result failed or had its tool calls rejected')
    .option('--fail-under <bars>', 'exit 1 when a figure is under its bar, e.g. f1=0.8,schema=0.95 (any figure; mean across runs)')
    .option('--junit <file>', 'also write JUnit XML: one test case per sample and run')
    .option('--json', 'print the summary rows as JSON Lines')
    .action(
      async (
        path: string,
        opts: {
          endpoint?: string;
          model?: string;
          engine: string;
          apiKeyEnv: string;
          guided: GuidedChoice;
          concurrency: number;
          timeout: number;
          limit?: number;
          out: string;
          resume?: boolean;
          reference?: string;
          hallucinate?: number;
          seed: number;
          format?: string;
          json?: boolean;
          maxAnswer: number;
          tagShape?: string;
          repeat: number;
          rerunFailed?: boolean;
          failUnder?: string;
          junit?: string;
        },
      ) => {
        if (!(opts.maxAnswer > 0)) throw new InputError('--max-answer takes a positive number of MB');
        if (opts.format && opts.tagShape) {
          if (!getFormat(opts.format).guided?.shapes.includes(opts.tagShape))
            throw new InputError(`--tag-shape ${opts.tagShape} is not a shape of the ${opts.format} format's structural tag`);
        }
        const { parseEngine } = await import('./replayCommand.ts');
        const { evalRunCommand } = await import('./evalRunCommand.ts');
        process.exitCode = await evalRunCommand(
          path,
          {
            endpoint: opts.endpoint,
            model: opts.model,
            engine: parseEngine(opts.engine),
            apiKeyEnv: opts.apiKeyEnv,
            guided: opts.guided,
            concurrency: opts.concurrency,
            timeoutS: opts.timeout,
            limit: opts.limit,
            outDir: opts.out,
            resume: Boolean(opts.resume),
            reference: opts.reference,
            json: opts.json,
            hallucinate: opts.hallucinate,
            seed: opts.seed,
            format: opts.format,
            maxAnswerMb: opts.maxAnswer,
            tagShape: opts.tagShape,
            repeat: opts.repeat,
            rerunFailed: opts.rerunFailed,
            failUnder: opts.failUnder,
            junit: opts.junit,
            toolVersion: toolVersion(),
          },
          process.stdout,
        );
      },
    );
  evalCmd
    .command('summarize')
    .description("print K2-Vendor-Verifier's summary figures for a results file (and F1 against a reference run)")
    .argument('<results>', 'a K2VV results .jsonl')
    .option('--reference <results>', 'the official results to compute tool-call trigger precision/recall/F1 against')
    .option('--json', 'print the summary as one JSON object')
    .action(async (path: string, opts: { reference?: string; json?: boolean }) => {
      const { evalSummarizeCommand } = await import('./evalCommand.ts');
      process.exitCode = await evalSummarizeCommand(path, opts, process.stdout);
    });
  evalCmd
    .command('rescore')
    .description("judge saved results again with today's checks, without a request: K2VV's figures, error classes, changed verdicts")
    .argument('<results>', "a K2VV results .jsonl (K2VV's own or toolscope eval's)")
    .option('--reference <results>', 'official results for tool-call trigger precision/recall/F1')
    .option('--fail-under <bars>', 'exit 1 when a figure is under its bar, e.g. schema=0.95')
    .option('--junit <file>', 'also write JUnit XML: one test case per sample and run')
    .option('--json', 'print one JSON object')
    .action(async (path: string, opts: { reference?: string; failUnder?: string; junit?: string; json?: boolean }) => {
      const { evalRescoreCommand } = await import('./evalRescoreCommand.ts');
      process.exitCode = await evalRescoreCommand(path, opts, process.stdout);
    });
  evalCmd
    .command('compare')
    .description('two results files side by side: figures with deltas, and per sample what changed (trigger, schema, findings)')
    .argument('<baseline>', 'results .jsonl')
    .argument('<candidate>', 'results .jsonl')
    .option('--reference <results>', 'official results for tool-call trigger F1 of both')
    .option('--json', 'print the comparison as one JSON object')
    .action(async (baseline: string, candidate: string, opts: { reference?: string; json?: boolean }) => {
      const { evalCompareCommand } = await import('./evalCompareCommand.ts');
      process.exitCode = await evalCompareCommand(baseline, candidate, opts, process.stdout);
    });
  evalCmd
    .command('verify')
    .description("check a results file's hash chain: exit 1 naming every edited, added or removed line")
    .argument('<results>', 'a results .jsonl written by toolscope eval')
    .option('--json', 'print the check as one JSON object')
    .action(async (path: string, opts: { json?: boolean }) => {
      const { evalVerifyCommand } = await import('./evalVerifyCommand.ts');
      process.exitCode = await evalVerifyCommand(path, opts, process.stdout);
    });

  program
    .command('serve')
    .description('run the embedded OpenAI-compatible endpoint (a scripted simulator, not a model)')
    .option('--port <n>', 'port (0 picks a free one)', (v) => Number(v), 0)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--script <trace>', 'answer requests with the completions of matching records in this trace')
    .option('--hallucinate <rate>', 'share of requests answered with an undeclared tool or a schema break', (v) => Number(v))
    .option('--seed <n>', 'seed for --hallucinate', (v) => Number(v), 0)
    .option('--model <name>', 'model name to report')
    .option('--token-delay <ms>', 'delay between streamed tokens', (v) => Number(v), 0)
    .addOption(
      new Option('--format <name>', 'the tool-call format the simulated model writes and the server parses (default: kimi_k2)').choices(
        formatNames(),
      ),
    )
    .addOption(
      new Option(
        '--vllm-profile <generation>',
        "parse tool calls the way this vLLM generation's Kimi K2 parser does (its bugs included) instead of Toolscope's reference parser",
      ).choices(engineGenerations()),
    )
    .action(
      async (opts: {
        port: number;
        host: string;
        script?: string;
        hallucinate?: number;
        seed: number;
        model?: string;
        tokenDelay: number;
        vllmProfile?: VllmGeneration;
        format?: string;
      }) => {
        const { serveCommand } = await import('./serveCommand.ts');
        await serveCommand(
          {
            port: opts.port,
            host: opts.host,
            script: opts.script,
            hallucinate: opts.hallucinate,
            seed: opts.seed,
            model: opts.model,
            tokenDelayMs: opts.tokenDelay,
            vllmProfile: opts.vllmProfile,
            format: opts.format,
          },
          process.stdout,
        );
      },
    );
  program
    .command('proxy')
    .description(
      'record every exchange with an OpenAI-compatible endpoint: a pass-through on 127.0.0.1 that appends native records to a trace',
    )
    .requiredOption('--upstream <url>', 'the endpoint to forward to (base URL, e.g. http://127.0.0.1:8000/v1)')
    .option('--port <n>', 'port (0 picks a free one)', (v) => Number(v), 0)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--out <file>', 'trace file the records are appended to', 'traces.jsonl')
    .option(
      '--capture-tokens',
      'ask the upstream for token logprobs/ids and record them; the client still gets exactly what it would have without',
    )
    .addOption(
      new Option('--engine <engine>', 'how --capture-tokens asks for token data').choices(['vllm', 'sglang', 'openai']).default('vllm'),
    )
    .option('--max-size <MB>', 'rotate the trace before a file grows past this size (traces.2.jsonl, traces.3.jsonl, …)', (v) => Number(v))
    .option('--timeout <seconds>', 'fail an exchange when the upstream sends nothing for this long', (v) => Number(v), 600)
    .option('--api-key-env <var>', "send this variable's key upstream instead of the client's credentials")
    .option('-q, --quiet', 'no line per exchange')
    .action(
      async (opts: {
        upstream: string;
        port: number;
        host: string;
        out: string;
        captureTokens?: boolean;
        engine: string;
        maxSize?: number;
        timeout: number;
        apiKeyEnv?: string;
        quiet?: boolean;
      }) => {
        const { proxyCommand } = await import('./proxyCommand.ts');
        process.exitCode = await proxyCommand(
          {
            upstream: opts.upstream,
            port: opts.port,
            host: opts.host,
            out: opts.out,
            captureTokens: opts.captureTokens,
            engine: opts.engine,
            maxSize: opts.maxSize,
            timeoutS: opts.timeout,
            apiKeyEnv: opts.apiKeyEnv,
            quiet: opts.quiet,
          },
          process.stdout,
        );
      },
    );
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error.
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
    }
    if (err instanceof InputError) {
      process.stderr.write(`toolscope: ${terminalText(err.message)}\n`);
      return 2;
    }
    throw err;
  }
}

/** Runs the command line of this process and sets its exit code (launcher.ts calls it; so does running this file). */
export function runCli(): void {
  endQuietlyOnBrokenPipe(process.stdout);
  main(process.argv).then(
    (code) => {
      startupMark('main-done');
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`toolscope: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 70;
    },
  );
}

if (isAnalyzeWorker()) runAnalyzeWorker();
// Loaded only in a report worker: the report's code stays out of the CLI's start-up.
else if (isReportWorker()) void import('./reportWorker.ts').then((m) => m.runReportWorker());
else if (require.main === module) runCli();
