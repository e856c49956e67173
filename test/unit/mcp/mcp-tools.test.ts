/**
 * The registry of MCP tools: every file of src/mcp/tools/ is one tool, registered once, named after
 * its file (`explain-code-tool.ts` → `explain_code`); only propose_fix may change anything; every
 * string of a tool's answer is redacted.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { redactDeep, toolError } from '../../../src/mcp/tool-result.js';
import { MCP_TOOLS } from '../../../src/mcp/tools/index.js';

describe('MCP tools', () => {
  it('registers every tool file under its name', () => {
    const files = readdirSync(path.resolve('src/mcp/tools'))
      .filter((f) => f.endsWith('-tool.ts'))
      .map((f) => f.replace(/-tool\.ts$/, '').replace(/-/g, '_'));
    expect(MCP_TOOLS.map((t) => t.name).sort()).toEqual(files.sort());
    expect(new Set(MCP_TOOLS.map((t) => t.name)).size).toBe(MCP_TOOLS.length);
  });

  it('marks every tool read-only but propose_fix', () => {
    for (const t of MCP_TOOLS) expect([t.name, t.readOnly]).toEqual([t.name, t.name !== 'propose_fix']);
  });

  it('redacts every string of an answer and of an error', () => {
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const out = redactDeep({ a: [`token=${token}`], b: { c: `Authorization: Bearer ${token}` }, n: 3, z: null });
    expect(JSON.stringify(out)).not.toContain(token);
    expect(out.n).toBe(3);
    const error = toolError(Object.assign(new Error(`pull failed: ${token}`), { code: 'KUBE_UNREACHABLE' }));
    expect(error.isError).toBe(true);
    expect(JSON.stringify(error)).not.toContain(token);
    expect(JSON.stringify(error)).toContain('KUBE_UNREACHABLE: pull failed');
  });
});
