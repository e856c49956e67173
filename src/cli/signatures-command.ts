/**
 * `isvc-doctor signatures test [FILE...]`: validates signature files (a problem is one line naming
 * the file, the entry and the field, exit 2) and runs each entry's sample against the catalog the
 * diagnosis consults (the files first, then the shipped ones): exit 0 when every entry passes, 1
 * otherwise. Without FILE, tests the shipped signatures.
 */
import { shippedSignatures, signatureCatalog } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { SignatureError } from '../signatures/signature-error.js';
import { testSignatures } from '../signatures/test-signatures.js';
import { usageOf } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

const SIGNATURES_USAGE = usageOf('signatures');

export async function runSignaturesCommand(argv: string[], io: Pick<CliIo, 'stdout'>): Promise<number> {
  const [verb, ...files] = argv;
  if (verb !== 'test')
    throw new UsageError(verb ? `unknown signatures command "${verb}"\n${SIGNATURES_USAGE}` : SIGNATURES_USAGE);
  const flag = files.find((f) => f.startsWith('-'));
  if (flag) throw new UsageError(`unknown flag ${flag}\n${SIGNATURES_USAGE}`);
  let catalog: SignatureCatalog;
  try {
    catalog = files.length ? signatureCatalog(files) : shippedSignatures();
  } catch (error) {
    if (error instanceof SignatureError) throw new UsageError(error.message);
    throw error;
  }
  const tested = files.length ? catalog.entries.filter((e) => files.includes(e.file)) : catalog.entries;
  const results = testSignatures(catalog, tested);
  for (const r of results)
    io.stdout.write(r.problems.length ? `FAIL ${r.id} (${r.file}): ${r.problems.join('; ')}\n` : `ok   ${r.id}\n`);
  const failed = results.filter((r) => r.problems.length).length;
  io.stdout.write(`${results.length - failed} of ${results.length} signatures pass\n`);
  return failed ? 1 : 0;
}
