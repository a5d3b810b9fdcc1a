/**
 * JUnit XML (the Surefire/Ant shape CI systems read): suites of test cases, a failure or error element with a
 * message and a body. Everything is escaped, and characters XML 1.0 cannot carry (control characters, lone
 * surrogates) become U+FFFD, so a hostile completion can never break the file.
 */

export interface JunitCase {
  name: string;
  classname: string;
  timeS?: number;
  /** A check that did not pass (`failure`), or a request that did not complete (`error`). */
  failure?: { kind: 'failure' | 'error'; type: string; message: string; body: string };
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
  properties?: Record<string, string>;
}

const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const time = (s: number | undefined) => (s === undefined || !Number.isFinite(s) ? '0' : Math.max(0, s).toFixed(3));

export function junitXml(suites: readonly JunitSuite[], name = 'toolscope'): string {
  const count = (s: JunitSuite, k: 'failure' | 'error') => s.cases.filter((c) => c.failure?.kind === k).length;
  const total = (f: (s: JunitSuite) => number) => suites.reduce((n, s) => n + f(s), 0);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${xmlEscape(name)}" tests="${total((s) => s.cases.length)}" failures="${total((s) => count(s, 'failure'))}" errors="${total((s) => count(s, 'error'))}">`,
  );
  for (const s of suites) {
    const seconds = s.cases.reduce((n, c) => n + (c.timeS ?? 0), 0);
    out.push(
      `  <testsuite name="${xmlEscape(s.name)}" tests="${s.cases.length}" failures="${count(s, 'failure')}" errors="${count(s, 'error')}" skipped="0" time="${time(seconds)}">`,
    );
    const props = Object.entries(s.properties ?? {});
    if (props.length) {
      out.push('    <properties>');
      for (const [k, v] of props) out.push(`      <property name="${xmlEscape(k)}" value="${xmlEscape(v)}"/>`);
      out.push('    </properties>');
    }
    for (const c of s.cases) {
      const open = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}" time="${time(c.timeS)}"`;
      if (!c.failure) {
        out.push(open + '/>');
        continue;
      }
      const f = c.failure;
      out.push(open + '>');
      out.push(`      <${f.kind} type="${xmlEscape(f.type)}" message="${xmlEscape(f.message)}">${xmlEscape(f.body)}</${f.kind}>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
