/**
 * A verified Slack request body as Bolt expects it: a form (slash commands; interactions carry a
 * JSON `payload` field) or JSON (Events API). Anything that is not an object after parsing
 * (`payload=null`, a JSON `null`, a number, bad JSON) is refused here with a reason, so nothing
 * downstream sees it.
 */
import { parse as parseQuery } from 'node:querystring';

export type ParsedBody = { ok: true; body: Record<string, unknown> } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseSlackBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  const text = raw.toString('utf8');
  const type = ((contentType ?? '').split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const form = parseQuery(text);
    if (form.payload === undefined) return { ok: true, body: flatten(form) };
    if (typeof form.payload !== 'string') return { ok: false, reason: 'more than one payload field' };
    return parseJson(form.payload, 'payload');
  }
  if (type === 'application/json') return parseJson(text, 'body');
  return { ok: false, reason: `unsupported content type "${type.slice(0, 60)}"` };
}

function parseJson(text: string, what: string): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${what} is not JSON` };
  }
  return isObject(value) ? { ok: true, body: value } : { ok: false, reason: `${what} is not a JSON object` };
}

/** A form field given twice keeps its first value (Slack sends each once). */
function flatten(form: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) out[key] = Array.isArray(value) ? value[0] : value;
  return out;
}
