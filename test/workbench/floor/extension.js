// The floor: a custom editor that resolves at once and writes a page whose one inline script marks its first frame,
// with the marks and the page's markers the workbench e2e and openPairs.ts read from Toolscope's (openMoments.ts,
// codeServer.ts's traceFrame). Whatever the open path takes with it is the workbench's, not an editor's work.
/* global require, module, process */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS extension, packed and loaded as it is */
'use strict';
const vscode = require('vscode');
const { appendFileSync } = require('node:fs');
const { basename } = require('node:path');

/** As src/extension/openMarks.ts writes them. */
function openMark(name, file) {
  const target = process.env.TOOLSCOPE_OPEN_MARKS;
  if (!target) return;
  const { user, system } = process.cpuUsage();
  const line = { mark: name, file: file === undefined ? null : basename(file), at: Date.now(), cpu: Math.round((user + system) / 1000) };
  appendFileSync(target, JSON.stringify(line) + '\n');
}

const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(webview, file) {
  const nonce = Math.random().toString(36).slice(2);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<title>${escape(file)}</title></head>
<body><span class="file-name">${escape(file)}</span><h2 class="record-title">the first record</h2>
<script nonce="${nonce}">
performance.mark('toolscope:webview-start');
performance.mark('toolscope:list-painted');
requestAnimationFrame(() => performance.mark('toolscope:record-painted'));
</script></body></html>`;
}

function activate(context) {
  openMark('activate');
  const provider = {
    openCustomDocument(uri) {
      openMark('document-open', uri.fsPath);
      const document = { uri, dispose() {} };
      openMark('document-opened', uri.fsPath);
      return document;
    },
    resolveCustomEditor(document, panel) {
      panel.webview.options = { enableScripts: true };
      openMark('webview-created', document.uri.fsPath);
      panel.webview.html = page(panel.webview, basename(document.uri.fsPath));
      openMark('page-written', document.uri.fsPath);
    },
  };
  context.subscriptions.push(
    vscode.window.registerCustomEditorProvider('toolscopeFloor.trace', provider, { webviewOptions: { retainContextWhenHidden: false } }),
  );
}

module.exports = { activate, deactivate() {} };
