/**
 * Reading and patching xgrammar's EBNF printout (`Grammar.toString()`): split it into rules, find the root by
 * structure (never by a rule number, which depends on the tools), delete the separator sentinel, and add the
 * `excludes` web-xgrammar 0.1.27 cannot express in a structural tag.
 */
import { SEPARATOR_SENTINEL } from './webXgrammarLowering.ts';

export interface EbnfRule {
  name: string;
  /** Everything after `::=`, possibly several lines (TagDispatch). */
  body: string;
}

const RULE_HEAD = /^([A-Za-z_][A-Za-z0-9_]*) ::= /gm;

export function parseRules(ebnf: string): EbnfRule[] {
  const heads = [...ebnf.matchAll(RULE_HEAD)];
  return heads.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = heads[i + 1]?.index ?? ebnf.length;
    return { name: m[1] as string, body: ebnf.slice(start, end).trimEnd() };
  });
}

export function printRules(rules: readonly EbnfRule[]): string {
  return rules.map((r) => `${r.name} ::= ${r.body}`).join('\n') + '\n';
}

/** Identifiers a body refers to: words outside "strings" and [classes]. */
export function referencedNames(body: string): Set<string> {
  const names = new Set<string>();
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c === '"' || c === '[') {
      const close = c === '"' ? '"' : ']';
      i++;
      while (i < body.length && body[i] !== close) i += body[i] === '\\' ? 2 : 1;
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(body.slice(i)) as RegExpExecArray;
      names.add(m[0]);
      i += m[0].length;
    } else {
      i++;
    }
  }
  return names;
}

/**
 * The root of a structural-tag grammar: the `root`/`root_N` rule no other rule refers to (the JSON-schema and
 * regex sub-grammars are called `root` too, but are referenced), whose body calls the top format's rule.
 */
export function findRootRule(rules: readonly EbnfRule[], topType: string): EbnfRule {
  const referenced = new Set<string>();
  for (const r of rules) for (const n of referencedNames(r.body)) if (n !== r.name) referenced.add(n);
  const candidates = rules.filter((r) => /^root(_\d+)?$/.test(r.name) && !referenced.has(r.name));
  const byBody = candidates.filter((r) => new RegExp(`^\\(\\(${topType}(_\\d+)?\\)\\)$`).test(r.body.trim()));
  const found = byBody.length === 1 ? byBody[0] : candidates.length === 1 ? candidates[0] : undefined;
  if (!found) {
    throw new Error(
      `cannot find the root rule of the structural-tag grammar (top format ${topType}; unreferenced root rules: ${
        candidates.map((c) => c.name).join(', ') || 'none'
      })`,
    );
  }
  return found;
}

/** xgrammar's EBNF string literal. */
export function ebnfString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** Deletes the sentinel separator; the count must match, or the printout is not what we think it is. */
export function removeSentinel(rules: EbnfRule[], expected: number): EbnfRule[] {
  const literal = ebnfString(SEPARATOR_SENTINEL);
  let seen = 0;
  const out = rules.map((r) => {
    const parts = r.body.split(literal);
    seen += parts.length - 1;
    return parts.length === 1 ? r : { ...r, body: parts.map((p, i) => (i > 0 ? p.replace(/^ /, '') : p)).join('') };
  });
  if (seen !== expected) throw new Error(`expected ${expected} separator sentinel(s) in the EBNF, found ${seen}`);
  return out;
}

/** A rule that matches nothing: once an excluded string has been read, no continuation (not even the end). */
export const EXCLUDED_RULE = 'toolscope_excluded';

function dispatchPairs(excludes: readonly string[]): string {
  return excludes.map((e) => `  (${ebnfString(e)}, ${EXCLUDED_RULE}),\n`).join('');
}

/**
 * xgrammar 0.2's `excludes`, rebuilt: each excluded string becomes a TagDispatch trigger that leads to a rule
 * matching nothing, so the free text dies on it (TagDispatch triggers are only watched in free text, as
 * excludes are). Any-text rules with excludes become a TagDispatch with only those triggers.
 */
export function addExcludes(
  rules: EbnfRule[],
  dispatchExcludes: readonly string[],
  anyTextExcludes: readonly string[],
  anyTextWithExcludes: number,
): EbnfRule[] {
  if (dispatchExcludes.length === 0 && anyTextWithExcludes === 0) return rules;
  let out = rules.map((r) => {
    if (dispatchExcludes.length > 0 && r.body.startsWith('TagDispatch(')) {
      const at = r.body.indexOf('  stop_eos=');
      if (at < 0) throw new Error(`unexpected TagDispatch printout in rule ${r.name}`);
      // A text's own end is where it stops, not a string it may not hold (a reasoning prefix ending at `</think>`
      // beside free text that excludes `</think>`): xgrammar cannot build a dispatch with both.
      const stops = /stop_str=\(([^)]*)\)/u.exec(r.body)?.[1] ?? '';
      const own = dispatchExcludes.filter((e) => !stops.includes(ebnfString(e)));
      if (own.length === 0) return r;
      return { ...r, body: r.body.slice(0, at) + dispatchPairs(own) + r.body.slice(at) };
    }
    return r;
  });
  if (anyTextWithExcludes > 0) {
    const anyText = out.filter((r) => r.body.trim() === '(([\\0-\\U0010ffff]*))');
    if (anyText.length !== anyTextWithExcludes) {
      throw new Error(`any_text with excludes: expected ${anyTextWithExcludes} unbounded any-text rule(s), found ${anyText.length}`);
    }
    const body = `TagDispatch(\n${dispatchPairs(anyTextExcludes)}  stop_eos=true,\n  stop_str=(),\n  loop_after_dispatch=true\n)`;
    out = out.map((r) => (anyText.includes(r) ? { ...r, body } : r));
  }
  return [...out, { name: EXCLUDED_RULE, body: '(([]))' }];
}

/**
 * Gives the free text of a tag lowered to its first end (webXgrammarLowering.ts) all its ends back: the tag's rule
 * is `(("BEGIN" TEXT))` and TEXT a TagDispatch stopping at the first end; it stops at any of them instead.
 */
export function widenTextEnds(rules: EbnfRule[], multiEndTexts: ReadonlyArray<{ begin: string; ends: readonly string[] }>): EbnfRule[] {
  let out = rules;
  for (const { begin, ends } of multiEndTexts) {
    const head = `(("${ebnfString(begin).slice(1, -1)}" `;
    const textRules = new Set(
      out.filter((r) => r.body.startsWith(head) && r.body.endsWith('))')).map((r) => r.body.slice(head.length, -2).trim()),
    );
    const from = `stop_str=(${ebnfString(ends[0] as string)})`;
    const to = `stop_str=(${ends.map(ebnfString).join(', ')})`;
    let patched = 0;
    out = out.map((r) => {
      if (!textRules.has(r.name) || !r.body.startsWith('TagDispatch(') || !r.body.includes(from)) return r;
      patched++;
      return { ...r, body: r.body.replace(from, to) };
    });
    if (patched === 0) throw new Error(`no free-text rule found for the tag beginning ${JSON.stringify(begin)}`);
  }
  return out;
}
