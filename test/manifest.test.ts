/**
 * The extension manifest a user meets in the .vsix: what it promises (engines, trust, capabilities), that every
 * command it binds or shows exists, that the walkthrough's files ship, and that the stepping keybindings can never
 * act twice (the webview ignores their keys; VS Code forwards every key pressed in a webview to the workbench).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionForKey } from '../webview/stepping.ts';
import { TRACE_EXTENSIONS } from '../src/core/trace/traceFileNames.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Manifest {
  engines: Record<string, string>;
  icon: string;
  repository?: { url: string };
  activationEvents: string[];
  extensionKind: string[];
  capabilities: { untrustedWorkspaces: { supported: string }; virtualWorkspaces: { supported: boolean } };
  devDependencies: Record<string, string>;
  contributes: {
    commands: Array<{ command: string; title: string; category: string; enablement?: string }>;
    menus: Record<string, Array<{ command: string; when?: string }>>;
    keybindings: Array<{ command: string; key: string; when: string }>;
    walkthroughs: Array<{
      id: string;
      steps: Array<{ id: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }>;
    }>;
    configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> };
    customEditors: Array<{ viewType: string; selector: Array<{ filenamePattern: string }>; priority: string }>;
  };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const commands = new Set(pkg.contributes.commands.map((c) => c.command));

test('manifest: engines, trust, kind and activation as the issue asks', () => {
  assert.equal(pkg.engines.vscode, '^1.100.0', 'code-server 4.100.3 (the workbench that runs here) is VS Code 1.100');
  assert.equal(pkg.devDependencies['@types/vscode'], '1.100.0');
  assert.deepEqual(pkg.activationEvents, ['onLanguage:jsonl'], 'activation events: testActivationEvents below');
  assert.deepEqual(pkg.extensionKind, ['workspace']);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.equal(pkg.capabilities.virtualWorkspaces.supported, false);
  assert.ok(existsSync(join(ROOT, pkg.icon)), 'the icon exists');
  const png = readFileSync(join(ROOT, pkg.icon));
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.ok(png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128, 'the Marketplace wants at least 128×128');
  // No public repository yet: none is named rather than a made-up one (scripts/package.mjs ships the README's images).
  assert.ok(!pkg.repository || /^https:\/\//.test(pkg.repository.url));
  assert.ok(existsSync(join(ROOT, 'CHANGELOG.md')));
});

/** VS Code's own language for JSON Lines (its built-in json extension, 1.100): the trace files that open as it. */
const JSON_LINES_FILES = ['.jsonl', '.ndjson'];

test('manifest: the extension activates when a JSON Lines file opens as text, never at startup', () => {
  // A trace opened as text and then reopened with the trace editor (or opened with it from the text editor's menu)
  // finds the extension active: the bundle's load and activate() are not on the open → first paint path. Nothing
  // broader: not every startup, and no language VS Code does not define (.sse opens as plain text).
  assert.deepEqual(pkg.activationEvents, ['onLanguage:jsonl']);
  for (const e of pkg.activationEvents) assert.doesNotMatch(e, /^(\*|onStartupFinished)$/);
  for (const ext of JSON_LINES_FILES) assert.ok((TRACE_EXTENSIONS as readonly string[]).includes(ext), `${ext} is a trace file`);
  // The workbench this repository tests in, when it is installed: its json extension defines that language so.
  const codeServer = process.env.TOOLSCOPE_CODE_SERVER;
  const json = codeServer && join(codeServer, '..', '..', 'code-server', 'lib', 'vscode', 'extensions', 'json', 'package.json');
  if (json && existsSync(json)) {
    const languages = (
      JSON.parse(readFileSync(json, 'utf8')) as { contributes: { languages: Array<{ id: string; extensions?: string[] }> } }
    ).contributes.languages;
    assert.deepEqual(languages.find((l) => l.id === 'jsonl')?.extensions, JSON_LINES_FILES);
  }
});

test('manifest: every command has a title and the Toolscope category; settings are described', () => {
  for (const c of pkg.contributes.commands) {
    assert.ok(c.title && c.category === 'Toolscope', c.command);
  }
  for (const [name, p] of Object.entries(pkg.contributes.configuration.properties)) assert.ok(p.description || p.markdownDescription, name);
});

test('manifest: menus, keybindings and walkthrough steps name contributed commands', () => {
  const used = [
    ...Object.values(pkg.contributes.menus)
      .flat()
      .map((m) => m.command),
    ...pkg.contributes.keybindings.map((k) => k.command),
    ...pkg.contributes.walkthroughs.flatMap((w) =>
      w.steps.flatMap((s) => [...s.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1] as string)),
    ),
    ...pkg.contributes.walkthroughs.flatMap((w) =>
      w.steps.flatMap((s) => (s.completionEvents ?? []).map((e) => e.replace(/^onCommand:/, ''))),
    ),
  ];
  const unknown = used.filter((c) => !commands.has(c));
  assert.deepEqual(unknown, []);
});

test('manifest: the walkthrough opens a bundled sample, and its media ship in the .vsix', () => {
  const [walkthrough] = pkg.contributes.walkthroughs;
  assert.ok(walkthrough);
  const open = walkthrough.steps[0];
  const arg = /command:toolscope\.openSample\?([^)]+)\)/.exec(open?.description ?? '');
  assert.ok(arg, 'the first step opens a sample');
  const [sample] = JSON.parse(decodeURIComponent(arg[1] as string)) as string[];
  assert.ok(existsSync(join(ROOT, 'samples', sample as string)), `${sample} is bundled`);
  const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
  assert.match(ignore, /^!samples\/\*\.jsonl$/m);
  assert.match(ignore, /^!media\/walkthrough\/\*\.md$/m);
  for (const s of walkthrough.steps) {
    const media = s.media.markdown ?? s.media.image;
    assert.ok(media && existsSync(join(ROOT, media)), `${s.id}: ${media}`);
  }
});

test('keybindings: only in the trace editor, on keys the webview ignores, one per stepping command', () => {
  const bindings = pkg.contributes.keybindings;
  const stepping = [...commands].filter((c) => /^toolscope\.(next|previous)[A-Z]/.test(c));
  assert.equal(stepping.length, 6);
  assert.deepEqual(new Set(bindings.map((b) => b.command)), new Set(stepping));
  for (const b of bindings) {
    assert.match(b.when, /^activeCustomEditorId == 'toolscope\.trace'/);
    // The webview's own key handler must not act on the key, or a key press would step twice.
    const parts = b.key.split('+');
    const name = parts.pop() as string;
    // A KeyboardEvent's key: F10, ArrowRight…, or the character typed (capital with Shift).
    const key =
      name.length === 1
        ? parts.includes('shift')
          ? name.toUpperCase()
          : name
        : name.replace(/^f(\d+)$/, 'F$1').replace(/^(right|left|up|down)$/, (d) => `Arrow${d[0]?.toUpperCase()}${d.slice(1)}`);
    const e = {
      key,
      ctrlKey: parts.includes('ctrl'),
      metaKey: parts.includes('cmd') || parts.includes('meta'),
      altKey: parts.includes('alt'),
      shiftKey: parts.includes('shift'),
    };
    assert.equal(actionForKey(e), null, `${b.key} is handled by the webview too`);
  }
  // The debugger keeps F10 while it is stopped.
  for (const b of bindings.filter((x) => /f10$/.test(x.key))) assert.match(b.when, /debugState != 'stopped'/);
});

test('the trace editor is offered (never imposed) for every trace extension the reader takes', () => {
  const [editor] = pkg.contributes.customEditors;
  assert.equal(editor?.viewType, 'toolscope.trace');
  assert.equal(editor?.priority, 'option');
  assert.deepEqual(
    editor?.selector.map((s) => s.filenamePattern),
    TRACE_EXTENSIONS.map((e) => `*${e}`),
  );
  const openTrace = pkg.contributes.menus['explorer/context']?.find((m) => m.command === 'toolscope.openTrace');
  for (const ext of TRACE_EXTENSIONS) assert.ok(openTrace?.when?.includes(ext.slice(1)), `explorer menu for ${ext}`);
});
