/**
 * The trace editor's list workers (src/host/view/listWorkers.ts, listWorker.ts): a big line trace's list made on
 * worker threads — the what-ifs on this thread's grammar engines (real xgrammar) — is the list this thread makes, row
 * for row and finding for finding; a change of options while the workers list starts it over with nothing of the
 * old options left; and appended records are listed after a refresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { BACKGROUND_NICE } from '../../../src/io/workerThread.ts';
import { TraceSession } from '../../../src/host/view/traceSession.ts';
import { ListWorkers } from '../../../src/host/view/listWorkers.ts';
import type { AnalysisOptions } from '../../../src/core/analysis.ts';
import type { SummaryBatch } from '../../../src/host/view/traceSession.ts';
import { withFile } from './withTraceFile.ts';

const S = '<|tool_calls_section_begin|>';
const E = '<|tool_calls_section_end|>';
const call = (id: string, args: string) => `<|tool_call_begin|>${id}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
const tools = [
  {
    type: 'function',
    function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  },
];

function line(id: string, text: string, withTools: boolean): string {
  const request = { model: 'kimi-k2', messages: [{ role: 'user', content: 'q' }], ...(withTools ? { tools } : {}) };
  return JSON.stringify({ toolscope: 1, id, request, completion: { text } }) + '\n';
}

/**
 * About 9.5 MB: long answers without tools (no what-if) between short records with tools — clean calls, a call to a
 * tool the request does not offer, arguments the schema refuses, a leak into the content — and a bad line far in.
 */
function bigTrace(): string {
  const pad = 'x'.repeat(100_000);
  const out: string[] = [];
  for (let i = 0; i < 90; i++) {
    out.push(line(`long${i}`, `${pad} ${i}`, false));
    for (let j = 0; j < 4; j++) {
      const n = i * 4 + j;
      const body = [
        `${S}${call(`functions.search:${n}`, `{"query":"q${n}"}`)}${E}`,
        `${S}${call(`functions.browse:${n}`, '{"url":"x"}')}${E}`,
        `${S}${call(`functions.search:${n}`, '{"query":7}')}${E}`,
        `text <|tool_call_begin|> ${n}`,
      ][j] as string;
      out.push(line(`r${n}`, body, true));
    }
    if (i === 70) out.push('not json\n');
  }
  return out.join('');
}

/** The whole list, every what-if answered. */
async function listAll(session: TraceSession): Promise<SummaryBatch> {
  while (await session.nextBatch(40));
  while (await session.nextGuidedFindings());
  return session.snapshot();
}

async function inThread(path: string, options: AnalysisOptions): Promise<SummaryBatch> {
  const session = await TraceSession.open(path, 't.jsonl', options);
  try {
    return await listAll(session);
  } finally {
    await session.close();
  }
}

/** The big trace in a file, a session listing it on `workers`: `run` gets both; the session, file and workers go after. */
async function onWorkers(
  workers: ListWorkers,
  options: AnalysisOptions,
  run: (session: TraceSession, path: string) => Promise<void>,
): Promise<void> {
  try {
    await withFile(bigTrace(), async (path) => {
      const session = await TraceSession.open(path, 't.jsonl', options, {}, workers);
      try {
        await run(session, path);
      } finally {
        await session.close();
      }
    });
  } finally {
    await workers.close();
  }
}

test('a big trace listed on the workers is the list this thread makes, what-if findings included', async () => {
  const workers = new ListWorkers(2);
  try {
    await withFile(bigTrace(), async (path) => {
      const session = await TraceSession.open(path, 't.jsonl', {}, {}, workers);
      let listed: SummaryBatch;
      try {
        listed = await listAll(session);
        assert.equal(session.info('harness').analysing, false);
      } finally {
        await session.close();
      }
      const expected = await inThread(path, {});
      assert.equal(listed.summaries.length, 450);
      assert.deepEqual(listed, expected);
      // The what-ifs ran: the hallucinated tool is what guided decoding would have blocked, and no row still waits.
      assert.ok(listed.summaries.some((s) => s.kinds['guided-would-block']));
      assert.ok(listed.summaries.every((s) => !s.guidedPending));
      assert.deepEqual(
        listed.lineErrors.map((e) => e.line),
        [356],
      );
    });
  } finally {
    await workers.close();
  }
});

/** The nice value of each thread of this process, by thread id (Linux: /proc/self/task). */
function threadNice(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      // Fields after the command name (in parentheses, which may hold spaces): state is field 3, nice field 19.
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

test(
  'the list workers and their grammar workers run at a lower scheduling priority, this thread and its grammar worker do not (Linux)',
  { skip: process.platform !== 'linux' && 'per-thread nice values are Linux only' },
  async () => {
    const workers = new ListWorkers(1);
    try {
      await withFile(bigTrace(), async (path) => {
        const before = threadNice();
        const session = await TraceSession.open(path, 't.jsonl', {}, {}, workers);
        const niced = new Set<number>();
        const normal = new Set<number>();
        const look = () => {
          for (const [tid, nice] of threadNice()) {
            if (before.has(tid)) continue;
            (nice >= BACKGROUND_NICE ? niced : normal).add(tid);
          }
        };
        try {
          // Looked at while the list runs: the threads of the workers (list and grammar) are alive then.
          while (await session.nextBatch(40)) look();
          while (await session.nextGuidedFindings()) look();
          look();
        } finally {
          await session.close();
        }
        // The list thread and the grammar worker it started, both niced; this thread not.
        assert.ok(niced.size >= 2, `threads niced: ${niced.size}, not niced: ${normal.size}`);
        assert.equal(threadNice().get(process.pid), before.get(process.pid));
        // This thread's own grammar worker (its first rows' what-ifs) started beside them at normal priority.
        assert.ok(normal.size >= 1, `threads niced: ${niced.size}, not niced: ${normal.size}`);
      });
    } finally {
      await workers.close();
    }
  },
);

test('other options while the workers list: the list starts over, with nothing of the old options; appended records follow a refresh', async () => {
  await onWorkers(new ListWorkers(2), { guided: false }, async (session, path) => {
    // Partly listed (the workers under way), then another format: everything starts over.
    for (let i = 0; i < 3; i++) await session.nextBatch(40);
    assert.equal(session.setOptions({ format: 'hermes' }), true);
    const hermes = await listAll(session);
    assert.deepEqual(hermes, await inThread(path, { guided: false, format: 'hermes' }));
    assert.ok(hermes.summaries.every((s) => s.format === 'hermes'));
    await appendFile(path, line('appended', `${S}${call('functions.search:999', '{"query":"z"}')}${E}`, true));
    assert.deepEqual(await session.refresh(), { reset: false });
    const after = await listAll(session);
    assert.deepEqual(
      after.summaries.slice(-2).map((s) => s.id),
      ['r359', 'appended'],
    );
    assert.equal(after.summaries.length, 451);
  });
});

/** List workers whose threads all stay busy for a while when told (as when the old options' ranges still list). */
class HeldWorkers extends ListWorkers {
  private held = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<() => void>();

  /** Times `idle` was asked while held: a list that spins asks without end (then it is let go, to fail, not hang). */
  askedWhileHeld = 0;

  /** Resolves when the list first asks for a free thread while none is (it has reached the workers). */
  readonly reached: Promise<void>;
  private reach!: () => void;

  constructor(max: number) {
    super(max);
    this.reached = new Promise((r) => (this.reach = r));
  }

  override get idle(): boolean {
    if (this.held) this.reach();
    if (this.held && ++this.askedWhileHeld > 1000) this.held = false;
    return !this.held && super.idle;
  }

  override onIdle(f: () => void): () => void {
    this.listeners.add(f);
    const stop = super.onIdle(f);
    return () => {
      this.listeners.delete(f);
      stop();
    };
  }

  /**
   * No thread may take a range until a timer `ms` from now frees them, as a thread's message would (a macrotask: the
   * list must yield to it).
   */
  holdFor(ms: number): void {
    this.held = true;
    this.timer = setTimeout(() => {
      this.held = false;
      for (const f of [...this.listeners]) f();
    }, ms + 1);
  }

  override close(): Promise<void> {
    clearTimeout(this.timer);
    return super.close();
  }
}

test('every list thread busy when the list reaches the workers: the list waits for one to be free, it does not spin', async () => {
  const workers = new HeldWorkers(2);
  await onWorkers(workers, { guided: false }, async (session, path) => {
    for (let i = 0; i < 3; i++) await session.nextBatch(40);
    workers.holdFor(300);
    assert.equal(session.setOptions({ format: 'hermes' }), true);
    // Before the fix the list asked for a free thread round after round of microtasks, and the timer that frees
    // the threads never ran (as a thread's answer never arrived: the CI run that hung).
    const listed = await listAll(session);
    assert.ok(workers.askedWhileHeld < 50, `asked for a free thread ${workers.askedWhileHeld} times while none was`);
    assert.equal(listed.summaries.length, 450);
    assert.deepEqual(listed, await inThread(path, { guided: false, format: 'hermes' }));
  });
});

test('a session closed while its list waits for the workers: the list ends', async () => {
  const workers = new HeldWorkers(1);
  try {
    await withFile(bigTrace(), async (path) => {
      const session = await TraceSession.open(path, 't.jsonl', { guided: false }, {}, workers);
      workers.holdFor(60_000);
      // The head is listed here; then every thread is held, and the list waits.
      const waiting = (async () => {
        while (await session.nextBatch(40));
      })();
      await workers.reached;
      await session.close();
      await waiting;
    });
  } finally {
    await workers.close();
  }
});
