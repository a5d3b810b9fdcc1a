/**
 * The layers of the code base, checked on every import (type-only imports count: they tie the layers just as
 * tightly). A layer may import its own folder and the layers below it; nothing imports back up, and no files import
 * each other in a circle. Today's violations are listed in importAllowlist.json: that list may only shrink — a new
 * violation fails, and so does an entry that no longer occurs (delete it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graph } from './importGraph.ts';

/** Lowest first. A file belongs to the first layer whose prefix it starts with. */
const LAYERS: { name: string; prefixes: string[] }[] = [
  { name: 'protocol', prefixes: ['src/shared/'] },
  { name: 'util', prefixes: ['src/core/util/'] },
  { name: 'trace', prefixes: ['src/core/trace/'] },
  { name: 'tokens', prefixes: ['src/core/tokens/'] },
  { name: 'formats', prefixes: ['src/core/formats/'] },
  { name: 'schema', prefixes: ['src/core/schema/', 'src/core/template/'] },
  { name: 'guided', prefixes: ['src/core/guided/'] },
  { name: 'diagnostics', prefixes: ['src/core/diagnostics/'] },
  { name: 'analysis', prefixes: ['src/core/analysis.ts'] },
  { name: 'tables', prefixes: ['src/core/tables/'] },
  { name: 'publish', prefixes: ['src/core/publish/'] },
  { name: 'io', prefixes: ['src/io/'] },
  { name: 'host', prefixes: ['src/host/'] },
  { name: 'net', prefixes: ['src/net/'] },
  { name: 'roots', prefixes: ['src/cli/', 'src/extension/'] },
];

function layerOf(file: string): { name: string; rank: number } | null {
  for (const [rank, layer] of LAYERS.entries()) if (layer.prefixes.some((p) => file.startsWith(p))) return { name: layer.name, rank };
  return null;
}

/** Composition roots never import each other; the webview (a browser) imports only the protocol. */
function violation(from: string, to: string): string | null {
  if (from.startsWith('webview/'))
    return to.startsWith('webview/') || to.startsWith('src/shared/') ? null : 'the webview imports only src/shared';
  if (to.startsWith('webview/')) return 'only the webview imports webview/';
  const a = layerOf(from);
  const b = layerOf(to);
  if (!a || !b) return `no layer for ${a ? to : from}`;
  if (a.name === 'roots' && b.name === 'roots' && from.split('/')[1] !== to.split('/')[1]) return 'one composition root imports another';
  if (b.rank > a.rank) return `${a.name} imports ${b.name}, a layer above it`;
  return null;
}

/** Strongly connected components of more than one file (or a file importing itself): the import circles. */
function circles(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  // Iterative Tarjan: the graph is small, but recursion depth should not depend on the code base.
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const targets = (edges.get(frame.node) ?? []).filter((t) => edges.has(t));
      if (frame.next < targets.length) {
        const t = targets[frame.next++]!;
        if (!index.has(t)) {
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, next: 0 });
        } else if (onStack.has(t)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(t)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (edges.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) out.push(component.sort());
      }
    }
  }
  return out;
}

interface Allowlist {
  upward: string[];
  circles: string[][];
}

const allow = JSON.parse(readFileSync(join(import.meta.dirname, 'importAllowlist.json'), 'utf8')) as Allowlist;

test('imports run down the layers (the allow-list of older violations may only shrink)', () => {
  const found = new Map<string, string>();
  for (const [from, targets] of graph()) {
    for (const to of targets) {
      const why = violation(from, to);
      if (why) found.set(`${from} -> ${to}`, why);
    }
  }
  const fresh = [...found].filter(([edge]) => !allow.upward.includes(edge)).map(([edge, why]) => `${edge}  (${why})`);
  assert.deepEqual(fresh, [], `new imports that run up the layers:\n${fresh.join('\n')}`);
  const gone = allow.upward.filter((edge) => !found.has(edge));
  assert.deepEqual(gone, [], `fixed: delete these from test/architecture/importAllowlist.json:\n${gone.join('\n')}`);
});

test('no import circles (type-only imports included)', () => {
  const found = circles(graph()).map((c) => c.join(' <-> '));
  const allowed = allow.circles.map((c) => [...c].sort().join(' <-> '));
  const fresh = found.filter((c) => !allowed.includes(c));
  assert.deepEqual(fresh, [], `new import circles:\n${fresh.join('\n')}`);
  const gone = allowed.filter((c) => !found.includes(c));
  assert.deepEqual(gone, [], `fixed: delete these from test/architecture/importAllowlist.json:\n${gone.join('\n')}`);
});

test('the checker sees a violation and a circle when there is one', () => {
  assert.match(violation('src/core/trace/a.ts', 'src/core/formats/b.ts') ?? '', /trace imports formats/);
  assert.match(violation('webview/a.ts', 'src/core/trace/b.ts') ?? '', /webview imports only/);
  assert.match(violation('src/extension/a.ts', 'src/cli/b.ts') ?? '', /composition root/);
  assert.equal(violation('src/core/formats/a.ts', 'src/core/trace/b.ts'), null);
  const edges = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(circles(edges), [['a', 'b', 'c']]);
});
