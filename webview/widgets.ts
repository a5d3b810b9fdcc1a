/**
 * Small render helpers shared by the list, the inspector and the tabs: a severity icon, a finding's kind, ...
 * Each builds DOM through `h` (dom.ts) and knows nothing of the panel it lands in.
 */
import type { Severity } from '../src/shared/diagnostic.ts';
import { DIAGNOSTIC_KINDS } from './diagnosticKinds.ts';
import { h } from './dom.ts';

/** What the host says of a finding kind (its code, severity and title), or null for a kind it did not list. */
export function kindInfo(kind: string): { code: string; severity: Severity; title: string } | null {
  return Object.hasOwn(DIAGNOSTIC_KINDS, kind) ? (DIAGNOSTIC_KINDS[kind] ?? null) : null;
}

export function severityIcon(severity: Severity | null, extra = ''): HTMLElement {
  const s = severity ?? 'none';
  const label = severity ? severity : 'no findings';
  return h('span', { class: `sev sev-${s} ${extra}`.trim(), role: 'img', 'aria-label': label, title: label });
}
