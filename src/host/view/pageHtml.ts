/**
 * The trace editor's HTML page, for the VS Code webview and for the standalone report. Strict CSP: nothing but
 * the nonce'd bundle runs, no remote resource loads. Trace data is never markup: the report embeds it as a JSON
 * script block with `<`, `>`, `&` and line separators escaped, so no `</script>` inside a trace can end it.
 */
import { randomBytes } from 'node:crypto';
import type { LineErrorView, RecordSummary, RecordView, TraceInfo } from '../../shared/protocol.ts';

export interface EmbeddedTrace {
  info: TraceInfo;
  summaries: RecordSummary[];
  lineErrors: LineErrorView[];
  records: Record<string, RecordView>;
}

/**
 * A report's data as it is written: each record view either as built, or already script-safe JSON text (a report's
 * worker thread serializes the views it built, so the main thread only writes them).
 */
export type PageData = Omit<EmbeddedTrace, 'records'> & { records: Record<string, RecordView | string> };

export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** JSON safe to place inside a <script> element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page inside VS Code: bundle and stylesheet from the extension's dist/ through the webview's URIs. */
export function webviewPageHtml(opts: { scriptUri: string; styleUri: string; cspSource: string; nonce: string; title: string }): string {
  const csp = [
    "default-src 'none'",
    `img-src ${opts.cspSource} data:`,
    `font-src ${opts.cspSource}`,
    `style-src ${opts.cspSource} 'nonce-${opts.nonce}'`,
    `script-src 'nonce-${opts.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(opts.styleUri)}">
<title>${escapeAttribute(opts.title)}</title>
</head>
<body>
<div id="app" class="toolscope"></div>
<script nonce="${opts.nonce}" src="${escapeAttribute(opts.scriptUri)}"></script>
</body>
</html>
`;
}

/**
 * A self-contained report, bundle, stylesheet and data inline under the same CSP, in pieces, in order (a piece per record view): written one after another they are
 * the page, without the page ever being one string (a big trace's report can pass the longest string V8 makes).
 */
export function* reportPageParts(opts: {
  script: string;
  style: string;
  data: PageData;
  title: string;
  nonce?: string;
}): Generator<string> {
  const nonce = opts.nonce ?? makeNonce();
  const csp = ["default-src 'none'", 'img-src data:', `style-src 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`].join('; ');
  // The bundle itself is ours; still, never let its text close the script element early.
  const script = opts.script.replace(/<\/script/gi, '<\\/script');
  const style = opts.style.replace(/<\/style/gi, '<\\/style');
  yield `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeAttribute(opts.title)}</title>
<style nonce="${nonce}">${style}</style>
</head>
<body class="toolscope-report">
<div id="app" class="toolscope"></div>
<script type="application/json" id="toolscope-data">`;
  yield* dataParts(opts.data);
  yield `</script>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`;
}

/** The standalone report's page (`reportPageParts` joined). */
export function reportPageHtml(opts: { script: string; style: string; data: PageData; title: string; nonce?: string }): string {
  return [...reportPageParts(opts)].join('');
}

/**
 * `scriptSafeJson(data)` in pieces: the members in their order, as JSON.stringify writes them (undefined ones left
 * out), and the records one by one, a view given as text written as it is.
 */
function* dataParts(data: PageData): Generator<string> {
  let open = '{';
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined) continue;
    if (name !== 'records') {
      yield `${open}${scriptSafeJson(name)}:${scriptSafeJson(value)}`;
    } else {
      yield `${open}"records":`;
      let openRecords = '{';
      for (const [key, view] of Object.entries(value as PageData['records'])) {
        if (view === undefined) continue;
        yield `${openRecords}${scriptSafeJson(key)}:${typeof view === 'string' ? view : scriptSafeJson(view)}`;
        openRecords = ',';
      }
      yield openRecords === '{' ? '{}' : '}';
    }
    open = ',';
  }
  yield open === '{' ? '{}' : '}';
}
