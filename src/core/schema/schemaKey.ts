/**
 * The cache key of a tool schema: its JSON text, written without recursion. `JSON.stringify` recurses, and a
 * schema nested a few thousand levels deep (hostile, or generated) overflows the stack before anything is checked.
 * The same walk notes whether the schema declares its own ids (`$id`, draft-04 `id`), which ajv registers globally,
 * and whether it has a key `format` anywhere.
 */

/** Text to write as is (punctuation, an object key), told apart from the JSON values still to write. */
class Raw {
  constructor(readonly text: string) {}
}

const COMMA = new Raw(',');
const CLOSE_ARRAY = new Raw(']');
const CLOSE_OBJECT = new Raw('}');

export interface SchemaKey {
  key: string;
  /** The schema names ids (`$id` or `id` holding a string) somewhere. */
  declaresIds: boolean;
  /** Some object of the schema has a key `format` (the keyword, or a property of that name). */
  mentionsFormat: boolean;
}

export function schemaKey(schema: unknown): SchemaKey {
  const out: string[] = [];
  const stack: unknown[] = [schema];
  let declaresIds = false;
  let mentionsFormat = false;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof Raw) {
      out.push(v.text);
      continue;
    }
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    if (Array.isArray(v)) {
      out.push('[');
      stack.push(CLOSE_ARRAY);
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]);
        if (i > 0) stack.push(COMMA);
      }
      continue;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    out.push('{');
    stack.push(CLOSE_OBJECT);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      if ((k === '$id' || k === 'id') && typeof o[k] === 'string') declaresIds = true;
      else if (k === 'format') mentionsFormat = true;
      stack.push(o[k]);
      stack.push(new Raw(`${JSON.stringify(k)}:`));
      if (i > 0) stack.push(COMMA);
    }
  }
  return { key: out.join(''), declaresIds, mentionsFormat };
}
