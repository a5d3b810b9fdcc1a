/**
 * Writes a scripted argument object through a grammar matcher, key by key in the schema's order, all or nothing: the
 * model's own value where the grammar takes it, else the closest value the schema allows (scriptedArguments.ts), else
 * the schema's own for a required key; undeclared keys stay only where the grammar takes them. Shared by constrained
 * decoding token by token (constrainedDecoding.ts) and call by call (constrainedCalls.ts).
 */
import { readBitmask } from './allowedNext.ts';
import type { ByteVocabulary } from './byteVocabulary.ts';
import { plannedMembers, readScriptedObject, type ScriptedObject } from './scriptedArguments.ts';
import type { XgMatcher } from './xgrammarModule.ts';

/** On success the text written (the matcher advanced over it), on failure null with the matcher as it was. */
export class ArgumentWriter {
  private steps = 0;
  private text = '';

  constructor(
    private readonly matcher: XgMatcher,
    private readonly vocabulary: ByteVocabulary,
    private readonly root: unknown,
    /** Special tokens that may follow a complete value (the call's end, where it is one token). */
    private readonly endTokens: readonly string[] = [],
  ) {}

  async write(obj: ScriptedObject, lead: string, trail: string): Promise<string | null> {
    this.accept([lead, '']);
    if (!(await this.object(obj, this.root))) {
      this.matcher.rollBack(this.steps);
      return null;
    }
    this.accept([trail, '']);
    return this.text;
  }

  /** Accepts the first of `alternatives` the grammar allows; '' is always allowed. */
  private accept(alternatives: string[]): boolean {
    for (const t of alternatives) {
      if (t === '') return true;
      if (this.matcher.acceptString(t)) {
        this.steps++;
        this.text += t;
        return true;
      }
    }
    return false;
  }

  private undo(count: number, textLength: number): void {
    if (count > 0) this.matcher.rollBack(count);
    this.steps -= count;
    this.text = this.text.slice(0, textLength);
  }

  /** A complete value: accepted, and what follows may close or continue the enclosing object. */
  private async value(candidate: string): Promise<boolean> {
    if (!this.accept([candidate])) return false;
    const next = readBitmask(await this.matcher.nextTokenBitmask(), this.vocabulary, '');
    if (next.bytes.includes(0x2c) || next.bytes.includes(0x7d) || next.specials.some((s) => this.endTokens.includes(s))) return true;
    this.undo(1, this.text.length - candidate.length);
    return false;
  }

  private async object(obj: ScriptedObject, schemaNode: unknown): Promise<boolean> {
    if (!this.accept([obj.open ? `{${obj.open}` : '{', '{'])) return false;
    let first = true;
    for (const m of plannedMembers(obj, schemaNode, this.root)) {
      const steps = this.steps;
      const length = this.text.length;
      const sep = first ? [''] : [obj.separator, ', ', ','];
      const head = JSON.stringify(m.key);
      if (!this.accept(sep) || !this.accept([head + obj.colon, `${head}: `, `${head}:`])) {
        this.undo(this.steps - steps, length);
        if (m.required) return false;
        continue;
      }
      const value = m.scripted?.value;
      const nested =
        m.declared && value && typeof value === 'object' && !Array.isArray(value) ? readScriptedObject(m.scripted?.raw ?? '') : null;
      let done = false;
      for (const c of m.candidates()) if ((done = await this.value(c))) break;
      if (!done && nested) done = await this.object(nested, m.schema);
      if (done) first = false;
      else {
        this.undo(this.steps - steps, length);
        if (m.required) return false;
      }
    }
    return this.accept([obj.close ? `${obj.close}}` : '}', '}']);
  }
}
