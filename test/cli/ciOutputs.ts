/** Validators for the CI outputs: SARIF against its 2.1.0 JSON schema (ajv, draft-04; its language pattern is no valid unicode-mode regexp), JUnit against junit-10.xsd (xmllint). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';

const schemas = (name: string) => fileURLToPath(new URL(`../fixtures/schemas/${name}`, import.meta.url));

export function sarifErrors(log: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(schemas('sarif-2.1.0-rtm.5.json'), 'utf8')) as object);
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

export async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: xml }],
    schema: [readFileSync(schemas('junit-10.xsd'), 'utf8')],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

/** Test cases and their failures/errors, counted from the XML. */
export function junitCounts(xml: string): { testcases: number; failures: number; errors: number } {
  return {
    testcases: (xml.match(/<testcase /g) ?? []).length,
    failures: (xml.match(/<failure /g) ?? []).length,
    errors: (xml.match(/<error /g) ?? []).length,
  };
}
