/**
 * What the grammar-engine worker does with a job, with the in-process engine (xgrammar.ts, whatIf.ts,
 * constrainedDecoding.ts). Kept apart from engineWorker.ts so the jobs can be read and tested without a thread.
 */
import type { EngineJob, EngineValue, WhatIfOutcome } from './engineProtocol.ts';
import { hasRequestGrammar, whatIfForRequestJson } from './whatIf.ts';
import { constrainCompletion } from './constrainedDecoding.ts';
import { constrainCalls } from './constrainedCalls.ts';
import { buildsFormatTag, GuidedRequestError, requestedTag } from './requestGrammar.ts';
import { compileFormatGrammar, compileTag, warmUpCompiler, type CompiledGrammar } from './xgrammar.ts';
import type { ChatRequest } from '../trace/record.ts';
import type { ToolCallFormat } from '../formats/toolCallFormat.ts';
import { getFormat } from '../formats/registry.ts';

/**
 * The grammar a guided request to a model of `format` is decoded under, or null for an unguided one: the request's
 * own tag, else the format's tag for its tools.
 */
export async function grammarForRequest(request: ChatRequest, format: ToolCallFormat): Promise<CompiledGrammar | null> {
  const tag = requestedTag(request);
  if (tag) return compileTag(tag);
  if (!buildsFormatTag(request)) return null;
  if (!format.guided)
    throw new GuidedRequestError(`Toolscope has no structural tag for ${format.displayName}: strict tool calling cannot be served`);
  return compileFormatGrammar(format.guided, request.tools, request.tool_choice);
}

/** A scripted completion as guided decoding would have shaped it. */
async function constrained(request: ChatRequest, text: string, formatName: string): Promise<string> {
  const format = getFormat(formatName);
  const grammar = await grammarForRequest(request, format);
  if (!grammar) return text;
  const markup = format.guided?.markupInVocabulary;
  if (markup) return (await constrainCompletion(grammar, markup, text)).text;
  return (await constrainCalls(grammar, format, text, request.tools)).text;
}

/** A what-if's text up to this long runs in well under a millisecond on a compiled grammar (~0.2 µs a character). */
const QUICK_TEXT_CHARS = 4096;

/**
 * Whether a job may take long: anything but a what-if on a short text whose request's grammar is compiled already (a
 * compile can take seconds, or hang on a hostile schema). The worker answers ahead of such a job (engineWorker.ts).
 */
export function mayBeSlow(job: EngineJob): boolean {
  if (job.kind !== 'what-if' || job.text.length > QUICK_TEXT_CHARS) return true;
  return !hasRequestGrammar(job.request, { format: job.format, ...(job.shape === undefined ? {} : { shape: job.shape }) });
}

export async function runJob(job: EngineJob): Promise<EngineValue> {
  switch (job.kind) {
    case 'what-if': {
      const run = await whatIfForRequestJson(
        job.request,
        { text: job.text, tokens: [], finishReason: job.finishReason },
        { ...job.options, format: job.format, ...(job.shape === undefined ? {} : { shape: job.shape }) },
      );
      const outcome: WhatIfOutcome = run.ran ? { ran: true, result: run.result, compileMs: run.grammar.compileMs } : run;
      return outcome;
    }
    case 'constrain': {
      return { text: await constrained(job.request, job.text, job.format) };
    }
    case 'warm-up':
      await warmUpCompiler();
      return { ready: true };
  }
}
