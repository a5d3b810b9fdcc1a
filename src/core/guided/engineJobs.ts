/**
 * What the grammar-engine worker does with a job, with the in-process engine (xgrammar.ts, whatIf.ts,
 * constrainedDecoding.ts). Kept apart from engineWorker.ts so the jobs can be read and tested without a thread.
 */
import type { EngineJob, EngineValue, WhatIfOutcome } from './engineProtocol.ts';
import { whatIfForRequest } from './whatIf.ts';
import { constrainCompletion } from './constrainedDecoding.ts';
import { buildsKimiTag, requestedTag } from './requestGrammar.ts';
import { compileKimiGrammar, compileTag, warmUpCompiler, type CompiledKimiGrammar } from './xgrammar.ts';
import type { ChatRequest } from '../trace/record.ts';

/** The grammar a guided request is decoded under, or null for an unguided one. */
export async function grammarForRequest(request: ChatRequest): Promise<CompiledKimiGrammar | null> {
  const tag = requestedTag(request);
  if (tag) return compileTag(tag);
  if (buildsKimiTag(request)) return compileKimiGrammar(request.tools, request.tool_choice);
  return null;
}

export async function runJob(job: EngineJob): Promise<EngineValue> {
  switch (job.kind) {
    case 'what-if': {
      const run = await whatIfForRequest(
        { tools: job.tools as NonNullable<Parameters<typeof whatIfForRequest>[0]['tools']>, tool_choice: job.toolChoice ?? undefined },
        { text: job.text, tokens: [], finishReason: job.finishReason },
        { ...job.options, shape: job.shape, ...(job.format === undefined ? {} : { format: job.format }) },
      );
      const outcome: WhatIfOutcome = run.ran ? { ran: true, result: run.result, compileMs: run.grammar.compileMs } : run;
      return outcome;
    }
    case 'constrain': {
      const grammar = await grammarForRequest(job.request);
      return { text: grammar ? (await constrainCompletion(grammar, job.text)).text : job.text };
    }
    case 'warm-up':
      await warmUpCompiler();
      return { ready: true };
  }
}
