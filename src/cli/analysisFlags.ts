/**
 * The flags every command that analyses traces shares (`analyze`, `report`; the editor has the same as settings),
 * declared once: how records are analysed and which findings count, and how they become `AnalysisOptions`.
 */
import { Option, type Command } from 'commander';
import { basename } from 'node:path';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { formatNames } from '../core/formats/registry.ts';
import type { TokenizerPaths } from '../core/formats/tokenizerChoice.ts';
import { DEFAULT_MAX_COMPLETION_MB, type AnalysisOptions } from '../core/analysis.ts';
import { engineGenerations } from '../core/formats/engineGenerations.ts';
import type { Severity } from '../core/diagnostics/diagnostic.ts';
import { DIAGNOSTIC_KINDS, type DiagnosticKind } from '../core/diagnostics/registry.ts';
import type { VllmGeneration } from '../core/formats/engineRun.ts';
import { InputError } from './inputError.ts';

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
export function parseJobs(value: string): number {
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
export function tokenizerPaths(path: string | undefined): TokenizerPaths | undefined {
  if (path === undefined) return undefined;
  if (!existsSync(path)) throw new InputError(`--tokenizer: no such file or directory: ${path}`);
  return { any: path };
}

export const TOKENIZER_HELP =
  "your model's tokenizer for completions recorded without tokens: a model folder (tiktoken.model + tokenizer_config.json, or tokenizer.json) or a file (tokenizer.json, tiktoken.model, .gguf / Ollama blob)";

/** The flags analyze and report (and the editor's settings) share: how records are analysed and which findings count. */
export interface AnalysisFlags {
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
export function withAnalysisOptions(command: Command): Command {
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
export async function analysisOptionsFrom(opts: AnalysisFlags): Promise<AnalysisOptions> {
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
