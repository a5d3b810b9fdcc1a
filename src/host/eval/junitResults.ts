/**
 * A JUnit XML report as pytest's junitxml plugin writes it (`<testsuites>` of `<testsuite>`s of `<testcase
 * classname name time>`, a case's outcome the child it has: `<failure>`, `<error>`, `<skipped>`, none when it
 * passed), read back into its cases. The suites' declared counts (`tests`, `failures`, `errors`, `skipped`) are kept
 * beside the cases so that a report whose cases do not add up to them says so. The text is hostile: no DTD, no
 * entity beyond XML's five, a size bound.
 */
import { XMLParser } from 'fast-xml-parser';

export type JunitOutcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface JunitCase {
  suite: string;
  classname: string;
  name: string;
  outcome: JunitOutcome;
  /** The failure's, error's or skip's message attribute (first line), when there is one. */
  message: string | null;
}

export interface JunitSuiteCounts {
  name: string;
  tests: number | null;
  failures: number | null;
  errors: number | null;
  skipped: number | null;
}

export interface JunitReport {
  suites: JunitSuiteCounts[];
  cases: JunitCase[];
}

export class JunitReadError extends Error {}

/** Larger than any verifier run's report by far; past it the text is refused rather than parsed. */
export const MAX_JUNIT_BYTES = 64 * 1024 * 1024;

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's five entities and character references; nothing else is expanded. */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10)) ?? whole;
    return XML_ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(n: number): string | null {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : null;
}

type Node = Record<string, unknown>;

const asList = (v: unknown): Node[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is Node => x !== null && typeof x === 'object');

function attr(node: Node, name: string): string | null {
  const v = node[`@_${name}`];
  return typeof v === 'string' ? decode(v) : null;
}

function count(node: Node, name: string): number | null {
  const v = attr(node, name);
  if (v === null || !/^\d+$/.test(v)) return null;
  return Number(v);
}

function outcomeOf(tc: Node): { outcome: JunitOutcome; message: string | null } {
  for (const [tag, outcome] of [
    ['error', 'error'],
    ['failure', 'failed'],
    ['skipped', 'skipped'],
  ] as const) {
    const child = asList(tc[tag])[0] ?? (tag in tc ? {} : undefined);
    if (child) return { outcome, message: (attr(child, 'message') ?? '').split('\n')[0] || null };
  }
  return { outcome: 'passed', message: null };
}

export function parseJunit(xml: string): JunitReport {
  if (xml.length > MAX_JUNIT_BYTES) throw new JunitReadError(`larger than ${MAX_JUNIT_BYTES / 1024 / 1024} MB`);
  if (/<!DOCTYPE/i.test(xml)) throw new JunitReadError('a DOCTYPE is not read (JUnit reports have none)');
  let doc: Node;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      processEntities: false,
      htmlEntities: false,
      parseAttributeValue: false,
      parseTagValue: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
      isArray: (name) => name === 'testsuite' || name === 'testcase',
    }).parse(xml, true) as Node;
  } catch (err) {
    throw new JunitReadError(`not well-formed XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const root = asList(doc.testsuites)[0];
  const suites = root ? asList(root.testsuite) : asList(doc.testsuite);
  if (!root && suites.length === 0) throw new JunitReadError('no <testsuites> or <testsuite> element');
  const report: JunitReport = { suites: [], cases: [] };
  for (const s of suites) {
    const name = attr(s, 'name') ?? '';
    report.suites.push({
      name,
      tests: count(s, 'tests'),
      failures: count(s, 'failures'),
      errors: count(s, 'errors'),
      skipped: count(s, 'skipped'),
    });
    for (const tc of asList(s.testcase))
      report.cases.push({ suite: name, classname: attr(tc, 'classname') ?? '', name: attr(tc, 'name') ?? '', ...outcomeOf(tc) });
  }
  return report;
}

/** Suites whose declared counts differ from their cases' (a report cut short or edited), in words. */
export function junitCountMismatches(report: JunitReport): string[] {
  const out: string[] = [];
  for (const s of report.suites) {
    const cases = report.cases.filter((c) => c.suite === s.name);
    const n = (o: JunitOutcome) => cases.filter((c) => c.outcome === o).length;
    for (const [key, declared, actual] of [
      ['tests', s.tests, cases.length],
      ['failures', s.failures, n('failed')],
      ['errors', s.errors, n('error')],
      ['skipped', s.skipped, n('skipped')],
    ] as const)
      if (declared !== null && declared !== actual) out.push(`suite "${s.name}" declares ${key}="${declared}" but holds ${actual}`);
  }
  return out;
}
