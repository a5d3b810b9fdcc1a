/**
 * Equal tool sets as one object. An agent sends the same tools with every request, and each record read from its
 * line holds a copy of its own; handing the analysis the first copy again lets what is kept by object — a tool's
 * compiled schema (toolSchemas.ts), the what-if's key (guidedEnginePool.ts) — find it without writing the tools out
 * as JSON again. Records are not changed once read, so an equal copy is the same tools.
 *
 * Equal means the same JSON text: the same keys in the same order (a grammar's property order follows the schema's)
 * and the same values; anything but plain objects, arrays and JSON's primitives is never called equal.
 */
import type { ChatTool } from './record.ts';

/** Tool sets compared against, the latest used first: a trace interleaves a few agents at most. */
const RECENT = 8;
/**
 * Deeper than this, two values are not called equal: the walk would overflow the stack on a hostile schema (3,000
 * levels), and "not equal" costs only the sharing.
 */
const MAX_DEPTH = 128;

export class ToolSets {
  private readonly recent: ChatTool[][] = [];
  /**
   * Each copy found equal to a kept set, and that set: a copy handed in again (a reader that shares one parsed tool
   * set among its records: sharedToolSets.ts) is that set without walking it again.
   */
  private readonly copies = new WeakMap<object, ChatTool[]>();

  /** The tool set seen before that equals `tools`, or `tools` itself (kept for the records after it). */
  same<T>(tools: T): T {
    if (!Array.isArray(tools) || tools.length === 0) return tools;
    const recent = this.recent;
    const known = this.copies.get(tools);
    // (The set a copy was found equal to, while it is still kept; else compared as any other.)
    const at = known ? recent.indexOf(known) : -1;
    if (at >= 0) return this.latest(at) as T;
    for (let i = 0; i < recent.length; i++) {
      const seen = recent[i] as ChatTool[];
      if (seen === tools) return this.latest(i) as T;
      if (!sameJson(seen, tools)) continue;
      this.copies.set(tools, seen);
      return this.latest(i) as T;
    }
    recent.unshift(tools as ChatTool[]);
    if (recent.length > RECENT) recent.pop();
    return tools;
  }

  /** The kept set at `i`, moved to the front (the latest used). */
  private latest(i: number): ChatTool[] {
    const seen = this.recent[i] as ChatTool[];
    if (i > 0) {
      this.recent.splice(i, 1);
      this.recent.unshift(seen);
    }
    return seen;
  }
}

function plain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The keys of a kept tool set's objects, in order: read once, not once per record compared with it. */
const keysOf = new WeakMap<object, string[]>();

function keysOfSeen(value: object): string[] {
  let keys = keysOf.get(value);
  if (!keys) keysOf.set(value, (keys = Object.keys(value)));
  return keys;
}

/**
 * `fresh` is written as the same JSON text as `seen` (never said of two objects other than plain ones and arrays).
 * `seen`: a value kept for comparing again (its keys are kept with it).
 */
export function sameJson(seen: unknown, fresh: unknown, depth = 0): boolean {
  if (seen === fresh) return true;
  if (typeof seen !== 'object' || typeof fresh !== 'object' || seen === null || fresh === null) return false;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(seen)) {
    if (!Array.isArray(fresh) || seen.length !== fresh.length) return false;
    for (let i = 0; i < seen.length; i++) if (!sameJson(seen[i], fresh[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(fresh) || !plain(seen) || !plain(fresh)) return false;
  const keys = keysOfSeen(seen);
  // The fresh object's keys in its own order (for…in reads them without making an array; an inherited one is one
  // too many, and the answer no).
  let i = 0;
  for (const k in fresh) {
    if (k !== keys[i] || !sameJson((seen as Record<string, unknown>)[k], (fresh as Record<string, unknown>)[k], depth + 1)) return false;
    i++;
  }
  return i === keys.length;
}
