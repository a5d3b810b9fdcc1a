/**
 * Merging a record's guided findings into its view: the host does it for the views it keeps, the webview for the
 * record it shows, so both end where one view built after the what-if would have started.
 */
import type { GuidedFindings, RecordView } from './protocol.ts';

export function withGuidedFindings(view: RecordView, findings: GuidedFindings): RecordView {
  return { ...view, diagnostics: findings.diagnostics, ignored: findings.ignored, guidedPending: false };
}
