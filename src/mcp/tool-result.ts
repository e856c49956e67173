/**
 * What an MCP tool answers: its JSON (the CLI's `-o json` shape) as structured content and as text,
 * every string redacted on the way out; or a tool error whose text starts with the same stable code
 * the CLI's message has (`USAGE`, `KUBE_FORBIDDEN`, `KUBE_UNREACHABLE`, …), never a crash.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorCode, errorMessage } from '../core/error-message.js';
import { redactText } from '../logs/redact.js';

/** Every string of a JSON value redacted (a value from the cluster may quote a secret). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  return value;
}

export function toolResult(json: Record<string, unknown>): CallToolResult {
  const structured = redactDeep(json);
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

/** `CODE: message`, one line, redacted. */
export function toolError(error: unknown): CallToolResult {
  const text = `${errorCode(error)}: ${redactText(errorMessage(error, 2000))}`;
  return { content: [{ type: 'text', text }], isError: true };
}
