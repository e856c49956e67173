/**
 * The shipped signatures precompiled at build time: the catalog read from the JSON form is the one
 * the YAML gives, and a YAML file changed, added or removed after the build makes the JSON stale, so
 * the YAML is read again.
 */
import { afterAll, beforeEach, expect, it } from '@jest/globals';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  loadShippedSignatures,
  loadSignatureFiles,
  SHIPPED_SIGNATURES_DIR,
  shippedSignatureFiles,
} from '../../../src/signatures/load-signatures.js';
import { readPrecompiledSignatures } from '../../../src/signatures/precompiled-signatures.js';
import type { SignatureCatalog } from '../../../src/signatures/signature-catalog.js';
import { writePrecompiledSignatures } from '../../../src/signatures/write-precompiled-signatures.js';

const root = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-precompiled-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dir = '';
let serial = 0;

beforeEach(() => {
  serial += 1;
  dir = path.join(root, String(serial));
  cpSync(SHIPPED_SIGNATURES_DIR, dir, { recursive: true });
  writePrecompiledSignatures(dir);
});

const comparable = (catalog: SignatureCatalog) =>
  catalog.entries.map((e) => ({ ...e, regex: `${e.regex.source}/${e.regex.flags}` }));

it('gives the catalog the YAML gives, without reading it as YAML', () => {
  const fromYaml = loadSignatureFiles(shippedSignatureFiles(dir));
  expect(readPrecompiledSignatures(dir, shippedSignatureFiles(dir))).toHaveLength(fromYaml.entries.length);
  expect(comparable(loadShippedSignatures(dir))).toEqual(comparable(fromYaml));
});

it('reads the YAML again when a file changed after the build', () => {
  const file = path.join(dir, 'events.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/\n( +)title: .+\n/, '\n$1title: A title changed after the build\n'),
  );
  expect(readPrecompiledSignatures(dir, shippedSignatureFiles(dir))).toBeUndefined();
  expect(loadShippedSignatures(dir).entries.map((e) => e.title)).toContain('A title changed after the build');
});

it('reads the YAML again when a file was added or removed after the build', () => {
  appendFileSync(path.join(dir, 'probes.yaml'), '\n');
  expect(readPrecompiledSignatures(dir, shippedSignatureFiles(dir))).toBeUndefined();
  writePrecompiledSignatures(dir);
  unlinkSync(path.join(dir, 'probes.yaml'));
  expect(readPrecompiledSignatures(dir, shippedSignatureFiles(dir))).toBeUndefined();
  expect(loadShippedSignatures(dir).entries.some((e) => e.file.endsWith('probes.yaml'))).toBe(false);
});
