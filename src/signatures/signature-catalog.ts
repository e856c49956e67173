/**
 * The loaded signatures, in the order they are consulted: a team's files first (so that they can
 * refine a shipped entry), then the shipped ones. Each line is matched by the first entry that
 * applies to it, so a specific (or misleading-message) entry placed before a generic one wins.
 */
import semver from 'semver';
import type { SignatureEntry, SignatureSource, VersionKey } from './signature-schema.js';

export interface CompiledSignature extends SignatureEntry {
  regex: RegExp;
  /** The file it was loaded from. */
  file: string;
  /** Its place in the catalog (0 = consulted first). */
  order: number;
}

/** What is known of the cluster's releases: a version ("0.7.0") or a range (">=0.7.0"); absent when unknown. */
export type VersionFacts = Partial<Record<VersionKey, string>>;

export interface SignatureMatch {
  entry: CompiledSignature;
  /** 0-based index of the line in the lines matched. */
  index: number;
  line: string;
  match: RegExpExecArray;
}

export function compileSignature(entry: SignatureEntry, file: string, order: number): CompiledSignature {
  return { ...entry, regex: new RegExp(entry.pattern, entry.ignoreCase ? 'i' : ''), file, order };
}

/** Whether an entry applies to the releases known (an unknown release never excludes it). */
export function appliesTo(entry: Pick<SignatureEntry, 'versions'>, facts: VersionFacts): boolean {
  for (const [key, wanted] of Object.entries(entry.versions ?? {}) as Array<[VersionKey, string | undefined]>) {
    const known = facts[key];
    if (!wanted || !known) continue;
    const range = semver.validRange(known) ?? known;
    if (!semver.intersects(wanted, range, { includePrerelease: true })) return false;
  }
  return true;
}

export class SignatureCatalog {
  /** `for`'s answers by source and facts: a diagnosis asks again for each log and event list, and each answer compares version ranges. */
  private readonly consulted = new Map<string, readonly CompiledSignature[]>();

  constructor(readonly entries: readonly CompiledSignature[]) {}

  /** The entries consulted for one source, in order. */
  for(where: SignatureSource, facts: VersionFacts = {}): CompiledSignature[] {
    const key = `${where}\n${JSON.stringify(Object.entries(facts).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    let entries = this.consulted.get(key);
    if (!entries) {
      entries = this.entries.filter((e) => e.where === where && appliesTo(e, facts));
      this.consulted.set(key, entries);
    }
    return [...entries];
  }

  /** Each line's first matching entry (lines that no entry matches are left out). */
  matchLines(where: SignatureSource, lines: readonly string[], facts: VersionFacts = {}): SignatureMatch[] {
    const entries = this.for(where, facts);
    const out: SignatureMatch[] = [];
    lines.forEach((line, index) => {
      for (const entry of entries) {
        const match = entry.regex.exec(entry.lines > 1 ? lines.slice(index, index + entry.lines).join('\n') : line);
        if (match) {
          out.push({ entry, index, line, match });
          return;
        }
      }
    });
    return out;
  }

  /** A catalog with another one's entries consulted first. */
  withFirst(other: SignatureCatalog): SignatureCatalog {
    const entries = [...other.entries, ...this.entries].map((e, order) => ({ ...e, order }));
    return new SignatureCatalog(entries);
  }
}
