/** One named redaction rule: how it rewrites a line, given what came before it. */
export interface LineContext {
  /** The line is Python source quoted by a traceback (after a `File "...", line N` line): identifiers there are code, not values. */
  codeLine: boolean;
}

export interface SecretRule {
  name: string;
  apply(line: string, context: LineContext): string;
}

/** A rule that is one global regular expression and its replacement. */
export function regexRule(
  name: string,
  pattern: RegExp,
  replacement: string | ((match: string, ...groups: string[]) => string),
): SecretRule {
  if (!pattern.global) throw new Error(`rule ${name}: the pattern must be global`);
  return {
    name,
    apply: (line) => line.replace(pattern, replacement as (match: string, ...groups: string[]) => string),
  };
}
