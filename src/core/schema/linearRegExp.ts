/**
 * The regular-expression engine ajv runs `pattern` and `patternProperties` with: RE2 (re2js), whose matching time
 * is linear in the input. A tool schema is untrusted input: with a backtracking engine `"^(a+)+$"` against 34 `a`s
 * and a `!` runs for minutes. RE2 has no lookaround and no backreferences; a pattern that needs them (or does not
 * parse) makes the schema fail to compile, so it is reported as a schema ajv cannot use, with the reason.
 */
import type { RE2JS } from 're2js';
import type { RegExpEngine } from 'ajv/dist/types/index.js';

export const LINEAR_REGEXP_NOTE = 'patterns are matched in linear time (RE2): lookaround and backreferences are not supported';

/**
 * The patterns of the drafts' own meta-schemas (`$id`, `$anchor`, draft-06/07 `$id`), which every tool schema is
 * checked against: ours, not the schema's, and linear on V8's own engine too (one class loop, anchored), so they
 * get a native RegExp. Building the first RE2JS pattern of a process cost ~5 ms of every short run's checks.
 */
const META_SCHEMA_PATTERNS = new Set(['^[^#]*#?$', '^[A-Za-z_][-A-Za-z0-9._]*$', '^[A-Za-z][-A-Za-z0-9.:_]*$']);

let engine: typeof RE2JS | undefined;

/**
 * re2js, loaded on the first pattern that needs it: its Unicode tables take a few milliseconds to build when the
 * module loads, which every `analyze` start paid, most tool schemas having no pattern at all.
 */
function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  engine ??= (require('re2js') as typeof import('re2js')).RE2JS;
  return engine;
}

export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    if (META_SCHEMA_PATTERNS.has(pattern)) return new RegExp(pattern, flags);
    let re: RE2JS;
    try {
      re = re2().compile(pattern);
    } catch (err) {
      throw new Error(
        `pattern ${JSON.stringify(pattern)} cannot be used (${err instanceof Error ? err.message : String(err)}); ${LINEAR_REGEXP_NOTE}`,
        { cause: err },
      );
    }
    // ajv caches compiled patterns by toString(): it must tell patterns apart.
    return { test: (s: string) => re.test(s), toString: () => `/${pattern}/${flags} (re2)` };
  },
  // How ajv's standalone code names this engine: the meta-schema validators generated at build time
  // (scripts/metaSchemaCode.ts) are bundled from this folder.
  { code: 'require("./linearRegExp.ts").linearRegExp' },
);
