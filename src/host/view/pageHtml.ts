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

/** The bundle's text as the body of a <script> element: its text never closes the element early. */
function inlineScript(script: string): string {
  return script.replace(/<\/script/gi, '<\\/script');
}

/** The stylesheet's text as the body of a <style> element. */
function inlineStyle(style: string): string {
  return style.replace(/<\/style/gi, '<\\/style');
}

/**
 * The page inside VS Code: bundle and stylesheet inline under the page's nonce (the CSP allows nothing else to run
 * or style it). Inline, not through the webview's resource URIs: in a browser workbench each of those requests goes
 * through the webview's service worker to the workbench and the remote file system and back, two round trips before
 * the script could start (80–200 ms of the open → first paint path, more on a busy machine).
 */
export function webviewPageHtml(opts: {
  script: string;
  style: string;
  cspSource: string;
  nonce: string;
  title: string;
  /** The page's first rows and record (protocol.ts, InitialPage): data, never markup, as a report's is. */
  initial?: unknown;
}): string {
  const csp = [
    "default-src 'none'",
    `img-src ${opts.cspSource} data:`,
    `font-src ${opts.cspSource}`,
    `style-src 'nonce-${opts.nonce}'`,
    `script-src 'nonce-${opts.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${opts.nonce}">${inlineStyle(opts.style)}</style>
<title>${escapeAttribute(opts.title)}</title>
</head>
<body>
<div id="app" class="toolscope"></div>
${
  opts.initial === undefined
    ? ''
    : `<script type="application/json" id="toolscope-initial">${scriptSafeJson(opts.initial)}</script>
`
}<script nonce="${opts.nonce}">${inlineScript(opts.script)}</script>
</body>
</html>
`;
}

/** The page inside VS Code when its own could not be written: the reason, as text (no script runs). */
export function webviewFailureHtml(message: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'">
</head>
<body>
<h2>Toolscope could not start</h2>
<pre>${escapeAttribute(message)}</pre>
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
  const script = inlineScript(opts.script);
  const style = inlineStyle(opts.style);
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
