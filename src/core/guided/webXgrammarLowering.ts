/**
 * Rewrites a structural tag into one web-xgrammar 0.1.27 (xgrammar ~0.1.28 C++) compiles, and records what the
 * EBNF printout must then be patched with to get back the 0.2.x semantics:
 * - an empty `tags_with_separator` separator throws there: use a sentinel, delete it from the EBNF later;
 * - an unlimited element (tags_with_separator, triggered_tags, any_text) may only end a sequence there: fold
 *   `[unlimited, const_string]` into a tag with an empty begin and that string as its end (same language);
 * - `excludes` is ignored on triggered_tags and throws on any_text there: strip it, re-add it in the EBNF;
 * - a tag with several ends is not known there: in a list of tags it becomes one tag per end (the same language),
 *   except a tag of free text, which ends at the first of its ends: it keeps its first end, and the EBNF's stop
 *   strings of its text get the others back (one tag per end would let the text run through the other ends);
 * - property names JSON escapes (`a\b`, `a"b`) are taken as EBNF escapes there: pre-escape them
 *   (propertyNameEscapes.ts).
 */
import type { StructuralTag, StructuralTagFormat, TagFormat } from '../formats/structuralTag/structuralTagFormat.ts';
import { escapePropertyNames } from './propertyNameEscapes.ts';

/** Stands in for the empty separator; control characters keep it out of any real tool name or text. */
export const SEPARATOR_SENTINEL = '\u0001SEP\u0001';

export interface LoweredTag {
  tag: StructuralTag;
  /** How many separators were replaced by the sentinel. */
  sentinels: number;
  /** Excludes of the triggered_tags formats (one list: all of them must agree). */
  dispatchExcludes: string[];
  /** Excludes of the any_text formats, and how many carry them. */
  anyTextExcludes: string[];
  anyTextWithExcludes: number;
  /** Tags of free text with several ends, lowered to their first end: the EBNF must stop their text at all. */
  multiEndTexts: Array<{ begin: string; ends: string[] }>;
  /** The format type at the top, after lowering: names the root rule's body. */
  topType: StructuralTagFormat['type'];
}

export class LoweringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoweringError';
  }
}

const UNLIMITED = new Set<StructuralTagFormat['type']>(['tags_with_separator', 'triggered_tags', 'any_text']);

export function lowerForWebXgrammar(tag: StructuralTag): LoweredTag {
  const state = { sentinels: 0, dispatch: null as string[] | null, anyText: null as string[] | null, anyTextCount: 0 };
  const multiEndTexts: LoweredTag['multiEndTexts'] = [];

  const sameList = (known: string[] | null, next: string[], what: string): string[] => {
    if (known !== null && JSON.stringify(known) !== JSON.stringify(next)) {
      throw new LoweringError(`${what} with different excludes in one tag are not supported`);
    }
    return next;
  };

  const lowerTag = (t: TagFormat): TagFormat => {
    if (Array.isArray(t.end)) throw new LoweringError('a tag with several ends outside a list of tags is not supported');
    return { type: 'tag', begin: t.begin, content: lower(t.content), end: t.end };
  };
  const lowerTags = (tags: TagFormat[]): TagFormat[] =>
    tags.flatMap((t) => {
      if (!Array.isArray(t.end)) return [lowerTag(t)];
      const [first, ...others] = t.end;
      if (t.content.type === 'any_text' && !t.content.excludes?.length && first !== undefined && others.length > 0) {
        multiEndTexts.push({ begin: t.begin, ends: [...t.end] });
        return [lowerTag({ ...t, end: first })];
      }
      return t.end.map((end) => lowerTag({ ...t, end }));
    });

  const lower = (f: StructuralTagFormat): StructuralTagFormat => {
    switch (f.type) {
      case 'tags_with_separator': {
        let separator = f.separator;
        if (separator === '') {
          separator = SEPARATOR_SENTINEL;
          state.sentinels++;
        }
        return { ...f, tags: lowerTags(f.tags), separator };
      }
      case 'triggered_tags': {
        const { excludes, ...rest } = f;
        state.dispatch = sameList(state.dispatch, excludes ?? [], 'triggered_tags');
        return { ...rest, tags: lowerTags(f.tags) };
      }
      case 'any_text': {
        if (f.excludes && f.excludes.length > 0) {
          state.anyText = sameList(state.anyText, f.excludes, 'any_text');
          state.anyTextCount++;
        }
        return { type: 'any_text' };
      }
      case 'tag':
        return lowerTag(f);
      case 'json_schema':
        return { ...f, json_schema: escapePropertyNames(f.json_schema) };
      case 'sequence': {
        const out: StructuralTagFormat[] = [];
        for (let i = 0; i < f.elements.length; i++) {
          const el = f.elements[i] as StructuralTagFormat;
          const next = f.elements[i + 1];
          if (UNLIMITED.has(el.type) && next?.type === 'const_string') {
            out.push({ type: 'tag', begin: '', content: lower(el), end: next.value });
            i++;
          } else {
            out.push(lower(el));
          }
        }
        return { type: 'sequence', elements: out };
      }
      default:
        return f;
    }
  };

  const format = lower(tag.format);
  return {
    tag: { type: 'structural_tag', format },
    sentinels: state.sentinels,
    dispatchExcludes: state.dispatch ?? [],
    anyTextExcludes: state.anyText ?? [],
    anyTextWithExcludes: state.anyTextCount,
    multiEndTexts,
    topType: format.type,
  };
}
