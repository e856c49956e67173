/** Golden-file comparison: writes the file when it is missing or UPDATE_GOLDEN=1, else compares. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(process.cwd(), 'test/golden/slack');

export function expectGolden(name: string, value: unknown): void {
  const file = path.join(ROOT, `${name}.json`);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(ROOT, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}
