/**
 * Guided decoding for every format that declares a structural tag (`ToolCallFormat.guided`), through the analysis
 * as a user runs it: a clean call gets `guided-accepts`; a hallucinated tool gets `guided-would-block` on the token
 * holding the first refused character of its name; an out-of-range integer gets it on the digit; a completion that
 * reasons first is judged from where the reasoning ends. The refused character is the same whatever the tokens
 * (the completion recorded with random token cuts). Cases: test/fixtures/guided/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer, type AnalyzedRecord } from '../../../src/core/analysis.ts';
import { formatNames, getFormat } from '../../../src/core/formats/registry.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { GUIDED_CASES, type GuidedCase } from '../../fixtures/guided/index.ts';
import { mulberry32, randomCuts } from '../../fixtures/randomCuts.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';

const guidedFormats = formatNames().filter((name) => getFormat(name).guided);

async function analyse(c: GuidedCase, text: string, cuts?: string[]): Promise<AnalyzedRecord> {
  const tokens = cuts?.map((t) => ({ text: t }));
  const record = { toolscope: 1, id: 'case', request: { tools: c.tools }, completion: { text, ...(tokens ? { tokens } : {}) } };
  const loaded = importText(JSON.stringify(record), 'case.jsonl');
  assert.equal(loaded.errors.length, 0, JSON.stringify(loaded.errors));
  return new Analyzer({ format: c.format }, nodeServices()).analyzeWithGuided(loaded.records[0] as (typeof loaded.records)[0]);
}

const guided = (a: AnalyzedRecord) => a.diagnostics.filter((d) => d.kind.startsWith('guided-'));

test('every format that declares guided decoding has a case (test/fixtures/guided/)', () => {
  assert.ok(guidedFormats.length >= 4, `formats with guided: ${guidedFormats.join(', ')}`);
  for (const name of guidedFormats)
    assert.ok(GUIDED_CASES[name], `no guided case for ${name}: add test/fixtures/guided/${name}.ts to index.ts`);
  for (const c of Object.values(GUIDED_CASES))
    assert.ok(getFormat(c.format).guided, `${c.format} has a case but declares no guided decoding`);
});

for (const name of guidedFormats) {
  const c = GUIDED_CASES[name] as GuidedCase;

  test(`${name} (xgrammar ${c.xgrammar}): a clean call and a call after reasoning → guided-accepts`, async () => {
    for (const text of [c.clean, ...(c.reasoning ? [c.reasoning] : [])]) {
      const a = await analyse(c, text);
      assert.equal(a.format, name);
      assert.deepEqual(
        guided(a).map((d) => d.kind),
        ['guided-accepts'],
        `${text}\n${JSON.stringify(guided(a), null, 1)}`,
      );
    }
  });

  if (c.outOfRange.refusedAt === null)
    test(`${name}: an out-of-range integer passes the tag, whose values are free text → guided-accepts, warning that the grammar let the schema error through`, async () => {
      assert.ok(getFormat(name).guided?.freeValues, 'only a tag with free values lets an out-of-range integer through');
      const found = guided(await analyse(c, c.outOfRange.text));
      assert.deepEqual(
        found.map((d) => [d.kind, d.severity]),
        [['guided-accepts', 'warning']],
        JSON.stringify(found, null, 1),
      );
      assert.match(found[0]?.message ?? '', /ajv rejects get_weather's arguments, whose values the tag does not constrain/);
    });

  for (const which of ['hallucinated', 'outOfRange'] as const) {
    const refusedAt = c[which].refusedAt;
    if (refusedAt === null) continue;
    test(`${name}: ${which === 'hallucinated' ? 'an undeclared tool' : 'an out-of-range integer'} → guided-would-block on the token holding the refused character, whatever the tokens`, async () => {
      const { text } = c[which];
      const rnd = mulberry32(0x5eed + refusedAt);
      const tokenings: Array<string[] | undefined> = [undefined, [...text], randomCuts(text, rnd, 4), randomCuts(text, rnd, 9)];
      for (const cuts of tokenings) {
        const a = await analyse(c, text, cuts);
        const blocked = guided(a);
        assert.deepEqual(
          blocked.map((d) => d.kind),
          ['guided-would-block'],
          JSON.stringify(blocked, null, 1),
        );
        const d = blocked[0] as (typeof blocked)[0];
        // What the grammar allowed there, in the tag's words, for every format.
        assert.match(
          d.message,
          which === 'hallucinated' ? /it allowed a tool name: get_weather;/ : (c.outOfRangeWords ?? /it allowed an integer 1–20 for days;/),
        );
        assert.equal(d.charStart, refusedAt, `${d.message} (cuts: ${cuts ? cuts.length : 'approximate'})`);
        const token = a.completion?.tokens[d.tokenStart as number];
        assert.ok(
          token && token.charStart <= refusedAt && refusedAt < token.charEnd,
          `token ${d.tokenStart} ${JSON.stringify(token)} holds offset ${refusedAt}`,
        );
      }
    });
  }
}
