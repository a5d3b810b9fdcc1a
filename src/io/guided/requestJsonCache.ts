/**
 * What-if jobs' `request` texts (engineProtocol.ts: `JSON.stringify({ tools, tool_choice })`) kept by tool set. The
 * analysis hands equal tool sets over as one object (toolSets.ts), so a record whose tools were seen before finds
 * their text by that object instead of the reading thread walking the tools for their depth and writing them out
 * again for every record. Only a tool choice given as a string (or none) is kept with them: a choice naming a
 * function is an object of each record's own.
 */
import type { ChatRequest } from '../../core/trace/record.ts';

const byTools = new WeakMap<object, { toolChoice: string | null; json: string }>();

type WhatIfRequest = Pick<ChatRequest, 'tools' | 'tool_choice'>;

/** The tool set's object, when the request's text can be kept by it. */
function keyOf(request: WhatIfRequest): { tools: object; toolChoice: string | null } | null {
  const { tools } = request;
  const toolChoice = request.tool_choice ?? null;
  if (typeof tools !== 'object' || tools === null || (toolChoice !== null && typeof toolChoice !== 'string')) return null;
  return { tools, toolChoice };
}

/** The text kept for this request's tool set and tool choice, if any. */
export function keptRequestJson(request: WhatIfRequest): string | undefined {
  const key = keyOf(request);
  if (!key) return undefined;
  const kept = byTools.get(key.tools);
  return kept && kept.toolChoice === key.toolChoice ? kept.json : undefined;
}

/** Keeps the text written for this request (the latest tool choice per tool set). */
export function keepRequestJson(request: WhatIfRequest, json: string): void {
  const key = keyOf(request);
  if (key) byTools.set(key.tools, { toolChoice: key.toolChoice, json });
}
