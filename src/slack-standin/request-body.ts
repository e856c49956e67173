/** Parses a Web API request body as Slack accepts it: form-encoded (JSON-looking values decoded) or JSON. */
export function parseRequestBody(raw: string, contentType: string | undefined): Record<string, any> {
  if (!raw) return {};
  if (contentType?.includes('application/json')) {
    try {
      return JSON.parse(raw) as Record<string, any>;
    } catch {
      return { _raw: raw };
    }
  }
  const out: Record<string, any> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    out[k] = /^[[{]/.test(v) ? jsonOrText(v) : v;
  }
  return out;
}

function jsonOrText(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
