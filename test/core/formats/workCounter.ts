/**
 * Counts the characters a piece of code scans through the string and RegExp primitives it calls, so "linear
 * time" can be checked by work done rather than by the clock: a parser that rescans its whole buffer on every
 * push does quadratic work whatever the machine's load, and a linear one does not, however busy the machine.
 * The count is a proxy (a parser could hide work in a hand-written loop over charCodeAt, which counts one per
 * call), but it is deterministic: no retries, no noise.
 */
type Patched = [object, string, PropertyDescriptor];

export function countWork(run: () => void): number {
  let work = 0;
  const patched: Patched[] = [];
  const patch = <T extends object>(proto: T, name: string, cost: (self: never, args: never[], result: never) => number) => {
    const original = Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor;
    patched.push([proto, name, original]);
    const fn = original.value as (...args: unknown[]) => unknown;
    Object.defineProperty(proto, name, {
      ...original,
      value: function (this: never, ...args: never[]) {
        const result = fn.apply(this, args) as never;
        work += 1 + Math.max(0, cost(this, args, result));
        return result;
      },
    });
  };
  const from = (n: unknown, self: string) => Math.min(self.length, Math.max(0, Number(n) || 0));
  const S = String.prototype;
  // A search costs the stretch it walks: to the hit, or to the end when there is none.
  const search = (self: string, [needle, start]: [string, number], at: number) =>
    (at < 0 ? self.length : at + String(needle).length) - from(start, self);
  patch(S, 'indexOf', search as never);
  patch(S, 'includes', ((self: string, [, start]: [string, number]) => self.length - from(start, self)) as never);
  patch(S, 'lastIndexOf', ((self: string) => self.length) as never);
  patch(S, 'startsWith', ((_: string, [needle]: [string]) => String(needle).length) as never);
  patch(S, 'endsWith', ((_: string, [needle]: [string]) => String(needle).length) as never);
  for (const name of ['slice', 'substring', 'substr', 'trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'normalize']) {
    patch(S, name, ((_: string, __: unknown[], result: string) => result.length) as never);
  }
  for (const name of ['split', 'replace', 'replaceAll', 'match', 'matchAll', 'search'])
    patch(S, name, ((self: string) => self.length) as never);
  // A regex scans from lastIndex (sticky or global) or from the start, to the end of the match or of the text.
  const R = RegExp.prototype;
  let execStart = 0;
  patch(R, 'exec', ((_: RegExp, [input]: [string], result: RegExpExecArray | null) => {
    const text = String(input);
    return (result ? result.index + result[0].length : text.length) - execStart;
  }) as never);
  const exec = Object.getOwnPropertyDescriptor(R, 'exec')?.value as (this: RegExp, s: string) => RegExpExecArray | null;
  Object.defineProperty(R, 'exec', {
    configurable: true,
    writable: true,
    value: function (this: RegExp, s: string) {
      execStart = this.global || this.sticky ? this.lastIndex : 0;
      return exec.call(this, s);
    },
  });
  try {
    run();
  } finally {
    for (const [proto, name, descriptor] of patched.reverse()) Object.defineProperty(proto, name, descriptor);
  }
  return work;
}
