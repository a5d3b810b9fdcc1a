/**
 * The few parts of the `vscode` API the trace editor provider and the format setting use, as plain objects, so the
 * extension glue runs under node:test (test/extension/vscodeHook.ts points `import 'vscode'` here).
 */
import { join } from 'node:path';

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static from(parts: { scheme: string; path: string; query?: string }): Uri {
    const uri = new Uri(parts.scheme, parts.path);
    (uri as { query?: string }).query = parts.query ?? '';
    return uri;
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, join(base.fsPath, ...parts));
  }
  toString(): string {
    return `${this.scheme}://${this.fsPath}`;
  }
}

export class Disposable {
  constructor(private readonly fn: () => void) {}
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

export class RelativePattern {
  constructor(
    readonly base: unknown,
    readonly pattern: string,
  ) {}
}

export const ViewColumn = { Beside: -2 };
export const StatusBarAlignment = { Left: 1, Right: 2 };

export class MarkdownString {
  value = '';
  constructor(
    value?: string,
    readonly supportThemeIcons?: boolean,
  ) {
    this.value = value ?? '';
  }
  appendText(text: string): this {
    this.value += text;
    return this;
  }
}

/** A status-bar item as the tests see it. */
export class FakeStatusBarItem {
  text = '';
  tooltip: unknown = undefined;
  command: unknown = undefined;
  name = '';
  accessibilityInformation: unknown = undefined;
  visible = false;
  disposed = false;
  constructor(readonly id: string) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
    this.visible = false;
  }
}
export const ProgressLocation = { Notification: 15 };
export class TabInputCustom {
  constructor(
    readonly uri: Uri,
    readonly viewType: string,
  ) {}
}

interface QuickPickItem {
  label: string;
}

type Listener<T> = (e: T) => unknown;

/** What the tests drive and observe. */
export const fake = {
  /** User settings (VS Code's global value). */
  settings: new Map<string, unknown>(),
  /** Workspace settings (a cloned repository's .vscode/settings.json): they win in `get`, as in VS Code. */
  workspaceSettings: new Map<string, unknown>(),
  configurationListeners: new Set<Listener<{ affectsConfiguration(section: string, scope?: unknown): boolean }>>(),
  warnings: [] as string[],
  errors: [] as string[],
  infos: [] as string[],
  /** Answers for the next quick picks, in order: each picks from the items offered (undefined: dismissed). */
  picks: [] as Array<(items: QuickPickItem[], options: { title?: string }) => QuickPickItem | undefined>,
  pickTitles: [] as string[],
  executed: [] as unknown[][],
  progress: [] as string[],
  trusted: true,
  contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string }>(),
  opened: [] as Array<{ uri: string; text: string }>,
  /** What the next save dialog answers (undefined: cancelled). */
  saveTo: undefined as Uri | undefined,
  statusBarItems: [] as FakeStatusBarItem[],
  clipboard: '',
  providers: new Map<string, unknown>(),
  /** Commands registered (the extension's activation), by id. */
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** Changes settings and tells the listeners, as VS Code does. */
  configure(values: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(values)) fake.settings.set(k, v);
    const changed = Object.keys(values);
    for (const l of fake.configurationListeners)
      l({ affectsConfiguration: (section) => changed.some((k) => k === section || k.startsWith(`${section}.`)) });
  },
};

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };

export const window = {
  createOutputChannel(): { appendLine(): void; clear(): void; show(): void; dispose(): void } {
    return { appendLine: () => undefined, clear: () => undefined, show: () => undefined, dispose: () => undefined };
  },
  registerCustomEditorProvider(viewType: string, provider: unknown): Disposable {
    fake.providers.set(viewType, provider);
    return new Disposable(() => fake.providers.delete(viewType));
  },
  showWarningMessage(message: string): Promise<undefined> {
    fake.warnings.push(message);
    return Promise.resolve(undefined);
  },
  showTextDocument(): Promise<void> {
    return Promise.resolve();
  },
  showErrorMessage(message: string): Promise<undefined> {
    fake.errors.push(message);
    return Promise.resolve(undefined);
  },
  showInformationMessage(message?: string): Promise<undefined> {
    if (message !== undefined) fake.infos.push(message);
    return Promise.resolve(undefined);
  },
  showQuickPick<T extends QuickPickItem>(items: T[], options: { title?: string } = {}): Promise<T | undefined> {
    fake.pickTitles.push(options.title ?? '');
    const answer = fake.picks.shift();
    return Promise.resolve(answer ? (answer(items, options) as T | undefined) : undefined);
  },
  showOpenDialog(): Promise<undefined> {
    return Promise.resolve(undefined);
  },
  showSaveDialog(): Promise<Uri | undefined> {
    return Promise.resolve(fake.saveTo);
  },
  createStatusBarItem(id: string): FakeStatusBarItem {
    const item = new FakeStatusBarItem(id);
    fake.statusBarItems.push(item);
    return item;
  },
  async withProgress<R>(
    _options: unknown,
    task: (progress: { report(v: { message?: string }): void }, token: { onCancellationRequested(f: () => void): void }) => Promise<R>,
  ): Promise<R> {
    return task({ report: (v) => fake.progress.push(v.message ?? '') }, { onCancellationRequested: () => undefined });
  },
  tabGroups: { activeTabGroup: { activeTab: undefined as { input: unknown } | undefined } },
  activeTextEditor: undefined as { document: { uri: Uri } } | undefined,
};

export const env = {
  clipboard: {
    writeText(text: string): Promise<void> {
      fake.clipboard = text;
      return Promise.resolve();
    },
    readText(): Promise<string> {
      return Promise.resolve(fake.clipboard);
    },
  },
};

export const languages = {
  createDiagnosticCollection(): { set(): void; clear(): void; dispose(): void } {
    return { set: () => undefined, clear: () => undefined, dispose: () => undefined };
  },
  setTextDocumentLanguage<T>(doc: T): Promise<T> {
    return Promise.resolve(doc);
  },
};

export const commands = {
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable {
    fake.commands.set(id, run);
    return new Disposable(() => fake.commands.delete(id));
  },
  executeCommand(...args: unknown[]): Promise<undefined> {
    fake.executed.push(args);
    return Promise.resolve(undefined);
  },
};

export const workspace = {
  get isTrusted(): boolean {
    return fake.trusted;
  },
  getConfiguration(section: string) {
    const full = (key: string) => `${section}.${key}`;
    return {
      get: <T>(key: string, fallback?: T): T | undefined =>
        fake.workspaceSettings.has(full(key))
          ? (fake.workspaceSettings.get(full(key)) as T)
          : fake.settings.has(full(key))
            ? (fake.settings.get(full(key)) as T)
            : fallback,
      inspect: <T>(key: string) => ({
        key: full(key),
        globalValue: fake.settings.get(full(key)) as T | undefined,
        workspaceValue: fake.workspaceSettings.get(full(key)) as T | undefined,
        workspaceFolderValue: undefined as T | undefined,
      }),
    };
  },
  onDidChangeConfiguration(listener: Listener<{ affectsConfiguration(section: string, scope?: unknown): boolean }>): Disposable {
    fake.configurationListeners.add(listener);
    return new Disposable(() => fake.configurationListeners.delete(listener));
  },
  createFileSystemWatcher() {
    const none = () => new Disposable(() => undefined);
    return { onDidChange: none, onDidCreate: none, dispose: () => undefined };
  },
  openTextDocument(uri?: Uri): Promise<object> {
    if (uri instanceof Uri)
      fake.opened.push({
        uri: `${uri.toString()}?${(uri as { query?: string }).query ?? ''}`,
        text: fake.contentProviders.get(uri.scheme)?.provideTextDocumentContent(uri) ?? '',
      });
    return Promise.resolve({ uri });
  },
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string }): Disposable {
    fake.contentProviders.set(scheme, provider);
    return new Disposable(() => fake.contentProviders.delete(scheme));
  },
};
