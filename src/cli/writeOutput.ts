/** Writes a report file named on the command line (JUnit, SARIF), creating its folder; a failure is a usage error. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from './inputError.ts';

export async function writeOutput(path: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(path, text, 'utf8');
  } catch (err) {
    throw new InputError(`cannot write ${path}: ${(err as Error).message}`);
  }
}
