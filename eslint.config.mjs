// Flat config: typescript-eslint's type-aware rules on src/ and test/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node modules that do file, process, thread or network I/O: not in the pure domain layers. */
const NODE_IO = ['node:fs', 'node:child_process', 'node:worker_threads', 'node:http', 'node:https', 'node:net', 'node:dgram'];
const PURE_CORE = 'src/core is pure domain code: do I/O in src/net or a composition root and pass the data in.';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [] }],
    },
  },
  {
    // Only the extension's composition root talks to the editor: the core, the host view models and the Node I/O
    // layer run in the CLI, the servers and tests.
    files: ['src/core/**/*.ts', 'src/host/**/*.ts', 'src/net/**/*.ts', 'src/shared/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/extension imports vscode.' }] }],
    },
  },
  {
    // The domain layers (src/core) and the protocol layer (src/shared, which the browser shares) are pure: file,
    // process, thread and network I/O belong to src/io (files, the grammar engine's thread), src/net (network) and the
    // composition roots, which hand the domain what it needs (AnalysisServices).
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'Only src/extension imports vscode.' },
            ...NODE_IO.map((name) => ({ name, message: PURE_CORE })),
          ],
          patterns: [{ group: ['node:fs/*', 'fs/*'], message: PURE_CORE }],
        },
      ],
    },
  },
  {
    // The webview renders hostile model text: DOM is built only through webview/dom.ts (text nodes and safe
    // attributes), never from markup, and nothing is evaluated.
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Trace text is hostile: build DOM with h() / textContent (webview/dom.ts).' },
        { property: 'outerHTML', message: 'Trace text is hostile: build DOM with h() / textContent (webview/dom.ts).' },
        { property: 'insertAdjacentHTML', message: 'Trace text is hostile: build DOM with h() / textContent (webview/dom.ts).' },
        { property: 'setHTMLUnsafe', message: 'Trace text is hostile: build DOM with h() / textContent (webview/dom.ts).' },
        { property: 'createContextualFragment', message: 'Trace text is hostile: build DOM with h() / textContent (webview/dom.ts).' },
        { property: 'parseFromString', message: 'Trace text is hostile: no HTML parsing in the webview.' },
        { property: 'srcdoc', message: 'No srcdoc in the webview.' },
        { object: 'document', property: 'write', message: 'No document.write in the webview.' },
        { object: 'document', property: 'writeln', message: 'No document.writeln in the webview.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[computed=true][property.value=/^(innerHTML|outerHTML|insertAdjacentHTML)$/]',
          message: 'Trace text is hostile: build DOM with h() / textContent (webview/dom.ts).',
        },
        {
          selector: 'AssignmentExpression > MemberExpression.left[property.name=/^on[a-z]+$/]',
          message: 'No inline event handlers: use addEventListener.',
        },
        {
          selector: "CallExpression[callee.property.name='setAttribute'][arguments.0.value=/^(on|href$|src$|srcdoc$|style$)/i]",
          message: 'No event-handler, URL or style attributes (use setAttr in webview/dom.ts).',
        },
      ],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-script-url': 'error',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
