/**
 * The embedded endpoint's "model": not a language model, a scripted completion source. It answers a chat
 * request with the completion of a matching trace record (`--script`), or by default calls the first offered
 * tool with schema-valid arguments. With a hallucination rate it deterministically (by request hash and seed)
 * calls an undeclared tool or breaks the schema instead: failures on demand, for demos and tests.
 */
import { createHash } from 'node:crypto';
import type { ChatRequest, ChatTool, TraceRecord } from '../../core/trace/record.ts';
import { exampleFor } from '../../core/schema/schemaExample.ts';
import { renderPrompt } from '../../core/template/renderPrompt.ts';
import { canonicalJson } from '../../core/util/canonicalJson.ts';

export interface ScriptOptions {
  /** Records whose request is answered with their own completion. */
  script?: TraceRecord[];
  /** Share of requests (0–1) answered with a broken call. */
  hallucinate?: number;
  seed?: number;
}

export type ScriptedKind = 'script' | 'call' | 'hallucinated-tool' | 'schema-break' | 'text';

export interface ScriptedCompletion {
  text: string;
  kind: ScriptedKind;
}

/** What identifies a conversation: its messages and tools, without the `strict` flag guided replays add. */
export function requestKey(request: Pick<ChatRequest, 'messages' | 'tools'>): string {
  const tools = (request.tools ?? []).map((t) => {
    const { strict: _strict, ...fn } = t.function ?? { name: '' };
    return { ...t, function: fn };
  });
  return canonicalJson({ messages: request.messages ?? [], tools });
}

function unit(hashInput: string): number {
  return createHash('sha256').update(hashInput).digest().readUInt32BE(0) / 0x100000000;
}

function lastUserText(request: ChatRequest): string {
  const last = [...(request.messages ?? [])].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

function callMarkup(name: string, index: number, args: unknown): string {
  return `<|tool_calls_section_begin|><|tool_call_begin|>functions.${name}:${index}<|tool_call_argument_begin|>${JSON.stringify(args)}<|tool_call_end|><|tool_calls_section_end|>`;
}

/** The call index Kimi would use next: one past the calls already in the conversation. */
function nextCallIndex(request: ChatRequest): number {
  return (request.messages ?? []).reduce((n, m) => n + (Array.isArray(m.tool_calls) ? m.tool_calls.length : 0), 0);
}

/** Breaks a valid argument object: drops a required property, or gives the first property a wrong type. */
function brokenArguments(tool: ChatTool, valid: unknown): unknown {
  const required = (tool.function.parameters?.required as string[] | undefined) ?? [];
  const obj = { ...(valid as Record<string, unknown>) };
  if (required.length) {
    delete obj[required[0] as string];
    return obj;
  }
  const props = Object.keys((tool.function.parameters?.properties as Record<string, unknown> | undefined) ?? {});
  if (props[0]) obj[props[0]] = { unexpected: true };
  else obj.unexpected_argument = true;
  return obj;
}

export class ScriptedModel {
  private readonly byKey = new Map<string, TraceRecord>();
  private byPrompt: Map<string, TraceRecord> | null = null;
  private readonly repeats = new Map<string, number>();

  constructor(private readonly options: ScriptOptions = {}) {
    for (const r of options.script ?? []) {
      if (r.request && r.completion) this.byKey.set(requestKey(r.request), r);
    }
  }

  /**
   * `/v1/completions`: a prompt rendered from a scripted record's request (with the default Kimi template, as
   * replay renders it) gets that record's completion; any other prompt is answered from what it declares.
   */
  completePrompt(prompt: string, request: ChatRequest): ScriptedCompletion {
    if (!this.byPrompt) {
      this.byPrompt = new Map();
      for (const r of this.byKey.values()) {
        try {
          this.byPrompt.set(renderPrompt(r.request as ChatRequest), r);
        } catch {
          // A request the default template cannot render is matched by its messages only.
        }
      }
    }
    const scripted = this.byPrompt.get(prompt);
    if (scripted?.completion) return { text: scripted.completion.text, kind: 'script' };
    return this.complete(request);
  }

  complete(request: ChatRequest): ScriptedCompletion {
    const scripted = this.byKey.get(requestKey(request));
    if (scripted?.completion) return { text: scripted.completion.text, kind: 'script' };
    const tools = (request.tools ?? []).filter((t) => t?.function?.name);
    const choice = request.tool_choice;
    const question = lastUserText(request);
    if (tools.length === 0 || choice === 'none') {
      return {
        text: `(Toolscope simulated model) I received: ${JSON.stringify(question.slice(0, 120))}. No tool call was needed.`,
        kind: 'text',
      };
    }
    const named = typeof choice === 'object' && choice ? tools.find((t) => t.function.name === choice.function.name) : undefined;
    const tool = named ?? (tools[0] as ChatTool);
    const valid = exampleFor(tool.function.parameters ?? { type: 'object' });
    const index = nextCallIndex(request);
    const rate = this.options.hallucinate ?? 0;
    if (rate > 0) {
      // Repeats of one request (K2VV samples each request many times) are separate draws, as sampling would be:
      // the n-th repeat has its own hash, so the share broken is the rate whatever order the repeats arrive in.
      const base = requestKey(request);
      const n = this.repeats.get(base) ?? 0;
      this.repeats.set(base, n + 1);
      const key = `${base}#${this.options.seed ?? 0}#${n}`;
      if (unit(key) < rate) {
        // Half of the broken answers name a tool that does not exist, half break the schema.
        return unit(key + '#kind') < 0.5
          ? { text: `Let me check that. ${callMarkup(`${tool.function.name}_v2`, index, valid)}`, kind: 'hallucinated-tool' }
          : { text: `Let me check that. ${callMarkup(tool.function.name, index, brokenArguments(tool, valid))}`, kind: 'schema-break' };
      }
    }
    return { text: `Let me check that. ${callMarkup(tool.function.name, index, valid)}`, kind: 'call' };
  }
}
