/**
 * axe-core (the standard accessibility engine) in a test page: its WCAG 2 A/AA violations, one readable line
 * each, for the browser suites to assert none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { js, ROOT } from './harness.ts';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core's WCAG 2 A/AA violations on the page as it is, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol, so the page's strict CSP does not apply to the injection.
  if (!(await js<boolean>(page, 'typeof window.axe === "object"'))) await page.evaluate(AXE);
  const result = await js<Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[]; failureSummary?: string }> }>>(
    page,
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`,
  );
  return result.map(
    (v) =>
      `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help} — ${v.nodes
        .slice(0, 4)
        .map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 160)}`)
        .join(' | ')}`,
  );
}
