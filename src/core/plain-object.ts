/** A JSON object read from an untyped Kubernetes field (not null, not an array). */
export type PlainObject = Record<string, unknown>;

export const isObj = (v: unknown): v is PlainObject => typeof v === 'object' && v !== null && !Array.isArray(v);
