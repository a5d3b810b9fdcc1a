/**
 * Guided decoding of a scripted answer call by call, for formats whose call markup is plain text to the grammar
 * (every format whose `guided.markupInVocabulary` is not set; Kimi K2's special tokens are walked token by token in
 * constrainedDecoding.ts). The format's own parser reads the answer back into what the model meant — what it said,
 * which tools, which arguments — and the format's call writer writes it again through the grammar, piece by piece,
 * the model's own text wherever the grammar takes it:
 * - what it said, where the grammar lets text stand (not under `tool_choice: "required"`);
 * - each call's head with the tool it named, else the declared tool whose name is closest to it (the grammar allows
 *   declared names only, so a hallucinated tool becomes a declared one);
 * - its arguments as written when the grammar takes them whole, else key by key (argumentWriter.ts): the model's
 *   values where the schema allows them, the nearest allowed ones where not, the schema's own for a missing key;
 * - the call's tail, the close, and the end of the turn.
 * A simulator of the effect guided decoding has, not a model: which tokens a real model would have sampled at a
 * masked position is not claimed.
 */
import type { ToolCallFormat } from '../formats/toolCallFormat.ts';
import type { ChatTool } from '../trace/record.ts';
import { readBitmask } from './allowedNext.ts';
import { ArgumentWriter } from './argumentWriter.ts';
import type { ConstrainedOutput } from './constrainedOutput.ts';
import { readScriptedObject } from './scriptedArguments.ts';
import { grammarStartOf } from './whatIf.ts';
import { newMatcher, type CompiledKimiGrammar } from './xgrammar.ts';
import type { XgMatcher } from './xgrammarModule.ts';

/** Declared tool names, closest to `name` first (longest common prefix, then declaration order). */
function byCloseness(name: string, declared: readonly string[]): string[] {
  const common = (a: string) => {
    let n = 0;
    while (n < a.length && n < name.length && a[n] === name[n]) n++;
    return n;
  };
  return declared
    .map((d, order) => ({ d, order, score: common(d) }))
    .sort((x, y) => y.score - x.score || x.order - y.order)
    .map((x) => x.d);
}

/** The grammar can end the turn here. */
async function canEnd(matcher: XgMatcher, grammar: CompiledKimiGrammar): Promise<boolean> {
  return matcher.isTerminated() || readBitmask(await matcher.nextTokenBitmask(), grammar.vocabulary, '').end;
}

class CallWriterRun {
  out = '';
  forced = 0;
  dropped = 0;
  firstChange: number | null = null;

  constructor(
    private readonly matcher: XgMatcher,
    private readonly prefixLength: number,
  ) {}

  /** Accepts the model's own text, or counts it as dropped. */
  own(text: string): boolean {
    if (text === '') return true;
    if (this.matcher.acceptString(text)) {
      this.out += text;
      return true;
    }
    this.changed(0, text.length);
    return false;
  }

  /** Text the grammar made the model write instead of `meant`. */
  supplied(text: string, meant: string): void {
    let p = 0;
    while (p < text.length && p < meant.length && text[p] === meant[p]) p++;
    this.firstChange ??= this.prefixLength + this.out.length + p;
    this.forced += text.length - p;
    this.dropped += meant.length - p;
    this.out += text;
  }

  changed(forced: number, dropped: number): void {
    this.firstChange ??= this.prefixLength + this.out.length;
    this.forced += forced;
    this.dropped += dropped;
  }
}

/** Runs a scripted completion of `format` through a compiled grammar of that format, call by call. */
export async function constrainCalls(
  grammar: CompiledKimiGrammar,
  format: ToolCallFormat,
  scripted: string,
  tools: readonly ChatTool[] | undefined,
): Promise<ConstrainedOutput> {
  const reasoningInTag = grammar.reasoningInTag === true;
  const start = reasoningInTag ? 0 : grammarStartOf(scripted, 'skip');
  // Unfinished reasoning: the grammar never started.
  if (start === null) return { text: scripted, firstChange: null, forced: 0, dropped: 0, complete: true };
  const prefix = scripted.slice(0, start);
  const parser = format.createParser({ tools: tools ? [...tools] : [] });
  parser.push(scripted.slice(start));
  parser.finish();
  const parsed = parser.result();
  // What the model said first: content, or (where the reasoning is a message of the tag, gpt-oss) its reasoning.
  const said = (parsed.content ?? '').trim() || (reasoningInTag ? (parsed.reasoning ?? '').trim() : '');
  const writer = format.callWriter;
  const declared = (tools ?? []).map((t) => t.function?.name).filter((n): n is string => typeof n === 'string');
  const schemaOf = (name: string) => (tools ?? []).find((t) => t.function?.name === name)?.function.parameters ?? { type: 'object' };

  const matcher = await newMatcher(grammar);
  try {
    const run = new CallWriterRun(matcher, prefix.length);
    const lead = said ? writer.lead(said) : '';
    run.own(lead);
    let complete = true;
    for (const [i, call] of parsed.calls.entries()) {
      const opening = i === 0 ? writer.open : writer.separator;
      if (!run.own(opening)) {
        complete = false;
        break;
      }
      const index = call.index;
      const meantHead = writer.head(call.name, index);
      let head: string | null = null;
      for (const name of [call.name, ...byCloseness(call.name, declared)]) {
        const candidate = writer.head(name, index);
        if (matcher.acceptString(candidate)) {
          head = candidate;
          if (name === call.name) run.out += candidate;
          else run.supplied(candidate, meantHead);
          break;
        }
      }
      if (head === null) {
        // No call may start here (tool_choice "none", or a grammar without this format's calls).
        run.changed(0, meantHead.length + call.arguments.length + writer.tail.length);
        complete = false;
        break;
      }
      const name = declared.find((d) => writer.head(d, index) === head) ?? call.name;
      const meantArgs = writer.arguments?.(call.arguments) ?? call.arguments;
      let args: string | null = null;
      if (matcher.acceptString(meantArgs)) {
        if (matcher.acceptString(writer.tail)) {
          matcher.rollBack(1);
          args = meantArgs;
          run.out += args;
        } else matcher.rollBack(1);
      }
      if (args === null) {
        const obj = readScriptedObject(call.arguments) ?? readScriptedObject('{}');
        const written = obj ? await new ArgumentWriter(matcher, grammar.vocabulary, schemaOf(name)).write(obj, '', '') : null;
        if (written === null) {
          complete = false;
          break;
        }
        run.supplied(written, meantArgs);
      }
      if (!run.own(writer.tail)) {
        complete = false;
        break;
      }
    }
    if (complete && parsed.calls.length > 0) complete = run.own(writer.close);
    if (complete) complete = await canEnd(matcher, grammar);
    return { text: prefix + run.out, firstChange: run.firstChange, forced: run.forced, dropped: run.dropped, complete };
  } finally {
    matcher.dispose();
  }
}
