/** The requests a simulator served, in order, with their final status (tests assert on them). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** get|list|watch|create|update|patch|delete|deletecollection ("get" for discovery documents). */
  verb: string;
  group: string;
  version: string;
  /** Plural, or plural/subresource ("pods/log", "inferenceservices/status"); "" for discovery and unknown paths. */
  resource: string;
  namespace?: string;
  name?: string;
  status: number;
  /** Epoch milliseconds when the request arrived. */
  at: number;
  /** Epoch milliseconds when its response was finished (a watch: when the stream ended). */
  doneAt?: number;
}

export function queryRecord(query: URLSearchParams): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, value] of query) record[key] = value;
  return record;
}
