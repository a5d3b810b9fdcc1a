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
import { argumentsText, type FormatCallWriter } from '../formats/callWriter.ts';
import type { ChatTool } from '../trace/record.ts';
import { readBitmask } from './allowedNext.ts';
import { ArgumentWriter } from './argumentWriter.ts';
import type { ConstrainedOutput } from './constrainedOutput.ts';
import { plannedMembers, readScriptedObject, type ScriptedObject } from './scriptedArguments.ts';
import { grammarStartOf } from './whatIf.ts';
import { newMatcher, type CompiledGrammar } from './xgrammar.ts';
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

/** Arguments that parse as one JSON object (else they are written as they came). */
function readable(json: string): boolean {
  try {
    const v: unknown = JSON.parse(json);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * Arguments written member by member (Qwen3-Coder's parameters), in the schema's property order as xgrammar asks
 * for them: each scripted member with its own value where the grammar takes it, else the nearest the schema allows;
 * a required one the script lacks with the schema's own value; undeclared members only where the grammar takes them.
 * All or nothing: on failure the matcher is rolled back and null returned.
 */
async function writeMembers(
  matcher: XgMatcher,
  member: NonNullable<FormatCallWriter['member']>,
  obj: ScriptedObject,
  root: unknown,
): Promise<string | null> {
  let text = '';
  let steps = 0;
  const accepted = (key: string, candidate: string): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      return false;
    }
    const piece = member(key, value);
    if (!matcher.acceptString(piece)) return false;
    steps++;
    text += piece;
    return true;
  };
  for (const m of plannedMembers(obj, root, root)) {
    if (m.candidates().some((c) => accepted(m.key, c)) || !m.required) continue;
    if (steps > 0) matcher.rollBack(steps);
    return null;
  }
  return text;
}

/** The grammar can end the turn here. */
async function canEnd(matcher: XgMatcher, grammar: CompiledGrammar): Promise<boolean> {
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
  grammar: CompiledGrammar,
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
  // The grammar's own spelling where it has one (SGLang's Mistral tag), else the model's.
  const writer = format.guided?.callWriter ?? format.callWriter;
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
      const name = [call.name, ...byCloseness(call.name, declared)].find((n) => matcher.acceptString(writer.head(n, index)));
      if (name === undefined) {
        // No call may start here (tool_choice "none", or a grammar without this format's calls).
        run.changed(0, meantHead.length + call.arguments.length + writer.tail.length);
        complete = false;
        break;
      }
      if (name === call.name) run.out += meantHead;
      else run.supplied(writer.head(name, index), meantHead);
      const meantArgs = readable(call.arguments) ? argumentsText(writer, call.arguments) : call.arguments;
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
        const written = !obj
          ? null
          : writer.member
            ? await writeMembers(matcher, writer.member, obj, schemaOf(name))
            : await new ArgumentWriter(matcher, grammar.vocabulary, schemaOf(name)).write(obj, '', '');
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
