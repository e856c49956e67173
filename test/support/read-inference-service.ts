/**
 * The InferenceService as a diagnosis read it (at the API version the report names), fetched from
 * the simulator without a client: what next steps' field paths are checked against.
 */
import type { Report } from '../../src/findings/types.js';

export async function readInferenceService(serverUrl: string, report: Report): Promise<unknown> {
  const { namespace, name, apiVersion, kind } = report.target;
  if (!apiVersion) return undefined;
  const plural = kind === 'llmisvc' ? 'llminferenceservices' : 'inferenceservices';
  const res = await fetch(`${serverUrl}/apis/${apiVersion}/namespaces/${namespace}/${plural}/${name}`);
  return res.ok ? res.json() : undefined;
}
