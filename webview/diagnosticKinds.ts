/**
 * The catalogue of diagnostic kinds (code, default severity, title) as the host sent it with the trace info: the
 * checks declare their kinds on the host's side (src/core/diagnostics/registry.ts), and the view knows none of its own.
 */
import type { TraceInfo } from '../src/shared/protocol.ts';

export const DIAGNOSTIC_KINDS: TraceInfo['diagnosticKinds'] = {};

/** Takes the host's catalogue (every trace info carries it). */
export function adoptDiagnosticKinds(kinds: TraceInfo['diagnosticKinds']): void {
  Object.assign(DIAGNOSTIC_KINDS, kinds);
}
