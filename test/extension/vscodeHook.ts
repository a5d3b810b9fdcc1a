/**
 * Imported first by tests of src/extension: `import * as vscode from 'vscode'` then loads fakeVscode.ts, whether
 * tsx compiles the sources to CommonJS (as now: package.json has no "type") or loads them as ES modules.
 */
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const fake = new URL('./fakeVscode.ts', import.meta.url);

const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const load = loader._load;
loader._load = function (request, parent, isMain) {
  return load.call(this, request === 'vscode' ? fileURLToPath(fake) : request, parent, isMain);
};

const hook = `export async function resolve(specifier, context, next) {
  return specifier === 'vscode' ? { url: ${JSON.stringify(fake.href)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
