/**
 * The trace editor's page inside VS Code (pageHtml.ts `webviewPageHtml`): the bundle and stylesheet come inline under
 * the page's nonce, so the page asks the webview's resource loader for nothing before its script runs; the CSP
 * stays strict (no inline code without the nonce, no remote script or style), and a bundle's text that looks like
 * a closing tag cannot end its element early.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewPageHtml } from '../../../src/host/view/pageHtml.ts';

const page = (script: string, style: string) =>
  webviewPageHtml({ script, style, cspSource: 'https://resource.example', nonce: 'N0nce', title: 'a <b> "c".jsonl' });

function csp(html: string): Map<string, string> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'the page has a CSP');
  return new Map(content.split('; ').map((d) => [d.slice(0, d.indexOf(' ')), d.slice(d.indexOf(' ') + 1)]));
}

test('the bundle and stylesheet are inline under the nonce; the page loads no script or stylesheet', () => {
  const html = page('window.started = 1;', '.toolscope { color: red; }');
  assert.match(html, /<script nonce="N0nce">window\.started = 1;<\/script>/);
  assert.match(html, /<style nonce="N0nce">\.toolscope \{ color: red; \}<\/style>/);
  assert.doesNotMatch(html, /<script[^>]*\ssrc=/);
  assert.doesNotMatch(html, /<link\b/);
  assert.equal((html.match(/<script\b/g) ?? []).length, 1);
  assert.equal((html.match(/<style\b/g) ?? []).length, 1);
});

test('the CSP allows the nonce only: no inline code without it, no script or style from anywhere', () => {
  const policy = csp(page('x()', 'y{}'));
  assert.equal(policy.get('default-src'), "'none'");
  assert.equal(policy.get('script-src'), "'nonce-N0nce'");
  assert.equal(policy.get('style-src'), "'nonce-N0nce'");
  for (const [name, value] of policy) assert.doesNotMatch(value, /unsafe-inline|unsafe-eval|\*/, name);
});

test('a closing tag inside the bundle or stylesheet does not end its element; the title is escaped', () => {
  const html = page('const s = "</script><script>alert(1)</script>";', 'a::after { content: "</style><img src=x>"; }');
  assert.equal((html.match(/<\/script>/gi) ?? []).length, 1, 'one script element, closed once');
  assert.equal((html.match(/<\/style>/gi) ?? []).length, 1, 'one style element, closed once');
  assert.match(html, /<title>a &lt;b&gt; &quot;c&quot;\.jsonl<\/title>/);
});

test('the first rows and record go in the page as data: a trace cannot end their element or run code', () => {
  const hostile = '</script><script>alert(1)</script><!-- \u2028 &amp;';
  const initial = { init: { type: 'init', summaries: [{ id: hostile, preview: hostile }] }, record: { key: '0:0', id: hostile } };
  const html = webviewPageHtml({ script: 'x()', style: 'y{}', cspSource: 'https://resource.example', nonce: 'N0nce', title: 't', initial });
  // One script that runs (the nonce'd bundle) and one data block, each closed once.
  assert.equal((html.match(/<script\b/g) ?? []).length, 2);
  assert.equal((html.match(/<\/script>/gi) ?? []).length, 2);
  assert.equal((html.match(/<script nonce="N0nce">/g) ?? []).length, 1);
  const data = /<script type="application\/json" id="toolscope-initial">([^<]*)<\/script>/.exec(html)?.[1];
  assert.ok(data, 'the data block, with no < inside it');
  assert.deepEqual(JSON.parse(data), initial);
  // The data block comes before the bundle, which reads it when it starts.
  assert.ok(html.indexOf('id="toolscope-initial"') < html.indexOf('<script nonce="N0nce">'));
});

test('a page without first rows carries no data block', () => {
  assert.doesNotMatch(page('x()', 'y{}'), /toolscope-initial/);
});
