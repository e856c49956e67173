/**
 * The Node.js the CLI runs on (package.json `engines`): 22.19 or newer, for `module.enableCompileCache()`
 * and for @kubernetes/client-node 2 (its undici fails on import on older Node). Checked before either
 * loads, so an older Node gets one line that says what to install instead of a TypeError.
 */
export const MIN_NODE = [22, 19] as const;

/** The refusal for this Node version, or undefined when it is supported. */
export function unsupportedNodeMessage(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return `isvc-doctor: needs Node.js ${MIN_NODE.join('.')} or newer (this is ${version}); install Node 24 LTS, or run it through \`node scripts/node-24.mjs\` in a checkout, which fetches Node 24 from the npm registry`;
}
