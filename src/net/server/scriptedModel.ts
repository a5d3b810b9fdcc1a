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
import { writeCompletion } from '../../core/formats/callWriter.ts';
import type { ToolCallFormat } from '../../core/formats/toolCallFormat.ts';
import { DEFAULT_FORMAT, getFormat } from '../../core/formats/registry.ts';
import { resolveFormat } from '../../core/formats/resolveFormat.ts';

export interface ScriptOptions {
  /** Records whose request is answered with their own completion. */
  script?: TraceRecord[];
  /** Share of requests (0–1) answered with a broken call. */
  hallucinate?: number;
  seed?: number;
  /** The format the model writes its calls in (Kimi K2 by default). */
  format?: ToolCallFormat;
}

export type ScriptedKind = 'script' | 'call' | 'hallucinated-tool' | 'schema-break' | 'text';

export interface ScriptedCompletion {
  text: string;
  kind: ScriptedKind;
  /** The format the text is written in: a scripted record's own, else the model's. */
  format: ToolCallFormat;
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

/** The call index the model would use next (Kimi K2 writes it): one past the calls already in the conversation. */
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
  /** Each scripted record's format, resolved once. */
  private readonly formats = new Map<TraceRecord, ToolCallFormat>();
  private readonly repeats = new Map<string, number>();
  readonly format: ToolCallFormat;

  constructor(private readonly options: ScriptOptions = {}) {
    this.format = options.format ?? getFormat(DEFAULT_FORMAT);
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
    if (scripted?.completion) return this.scripted(scripted);
    return this.complete(request);
  }

  complete(request: ChatRequest): ScriptedCompletion {
    const scripted = this.byKey.get(requestKey(request));
    if (scripted?.completion) return this.scripted(scripted);
    const tools = (request.tools ?? []).filter((t) => t?.function?.name);
    const choice = request.tool_choice;
    const question = lastUserText(request);
    if (tools.length === 0 || choice === 'none') {
      return {
        text: `(Toolscope simulated model) I received: ${JSON.stringify(question.slice(0, 120))}. No tool call was needed.`,
        kind: 'text',
        format: this.format,
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
          ? { text: this.answer(`${tool.function.name}_v2`, index, valid), kind: 'hallucinated-tool', format: this.format }
          : { text: this.answer(tool.function.name, index, brokenArguments(tool, valid)), kind: 'schema-break', format: this.format };
      }
    }
    return { text: this.answer(tool.function.name, index, valid), kind: 'call', format: this.format };
  }

  /** A scripted record's completion, in the record's own format (a trace may mix formats). */
  private scripted(record: TraceRecord): ScriptedCompletion {
    let format = this.formats.get(record);
    if (!format) {
      format = resolveFormat(record, null).format;
      this.formats.set(record, format);
    }
    return { text: record.completion?.text ?? '', kind: 'script', format };
  }

  /** A short preamble and one call, in the model's format. */
  private answer(name: string, index: number, args: unknown): string {
    return writeCompletion(this.format.callWriter, 'Let me check that.', [{ name, index, arguments: JSON.stringify(args) }]);
  }
}
