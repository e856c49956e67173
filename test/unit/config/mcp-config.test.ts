/** MCP over HTTP is off unless MCP_PORT is set; then MCP_TOKENS (NAME=TOKEN from a Secret) is required, each token long enough. */
import { describe, expect, it } from '@jest/globals';
import { buildConfig } from '../../../src/config.js';

const ENV = { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: 'secret' };
const LONG = 'a'.repeat(24);

describe('mcp settings', () => {
  it('are off by default', () => {
    expect(buildConfig({}, ENV).mcp).toEqual({ port: null, tokens: [], ratePerMinute: 60, channel: null });
  });

  it('read the port, the named tokens, the rate limit and the channel', () => {
    const c = buildConfig(
      { mcp: { channel: 'C0AGENTS' } },
      { ...ENV, MCP_PORT: '8090', MCP_TOKENS: `kagent=${LONG}, holmes=${LONG}b\n${LONG}c`, MCP_RATE_LIMIT: '30' },
    );
    expect(c.mcp).toEqual({
      port: 8090,
      tokens: [
        { name: 'kagent', token: LONG },
        { name: 'holmes', token: `${LONG}b` },
        { name: 'token-3', token: `${LONG}c` },
      ],
      ratePerMinute: 30,
      channel: 'C0AGENTS',
    });
  });

  it('refuse a port without tokens, a short token, a bad name, in one line naming the key', () => {
    expect(() => buildConfig({}, { ...ENV, MCP_PORT: '8090' })).toThrow(/^env: MCP_TOKENS: required with MCP_PORT/);
    expect(() => buildConfig({}, { ...ENV, MCP_PORT: '8090', MCP_TOKENS: 'a=short' })).toThrow(
      /^env: MCP_TOKENS: entry 1 \(a\): a token has at least 24 characters$/,
    );
    expect(() => buildConfig({}, { ...ENV, MCP_PORT: '8090', MCP_TOKENS: `Bad_Name=${LONG}` })).toThrow(
      /^env: MCP_TOKENS: entry 1: the name "Bad_Name" must be a DNS-1123 label$/,
    );
    expect(() => buildConfig({}, { ...ENV, MCP_PORT: 'x' })).toThrow(/^env: MCP_PORT: /);
  });
});
