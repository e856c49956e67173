/**
 * Why KServe found no serving runtime for a component, said with the runtimes that do exist: none
 * of the name the service (or the defaulting webhook) asks for, the named one disabled, none listing
 * the model format, or none serving the protocol version asked for (v1 by default: Triton serves
 * only v2). Reads ServingRuntimes in the namespace and ClusterServingRuntimes (memoised).
 */
import { ForbiddenError } from '../kube/errors.js';
import { componentsOf, refOf } from '../kube/inference-service-view.js';
import type { KubeObject } from '../kube/schemas.js';
import type { DiagnosisContext } from './playbook.js';
import type { Evidence } from '../findings/types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Runtime {
  kind: 'ServingRuntime' | 'ClusterServingRuntime';
  name: string;
  disabled: boolean;
  formats: Array<{ name: string; version?: string; autoSelect: boolean }>;
  protocols: string[];
}

function runtimeOf(kind: Runtime['kind'], o: KubeObject): Runtime {
  const spec = o.spec ?? {};
  const formats = Array.isArray(spec.supportedModelFormats) ? (spec.supportedModelFormats as unknown[]).filter(isObj) : [];
  return {
    kind,
    name: o.metadata.name,
    disabled: spec.disabled === true,
    formats: formats.map((f) => ({ name: String(f.name ?? ''), ...(f.version !== undefined ? { version: String(f.version) } : {}), autoSelect: f.autoSelect === true })),
    protocols: Array.isArray(spec.protocolVersions) ? (spec.protocolVersions as unknown[]).map(String) : ['v1'],
  };
}

function describe(rt: Runtime): string {
  const formats = rt.formats.map((f) => `${f.name}${f.version ? `:${f.version}` : ''}${f.autoSelect ? '' : ' (not autoSelect)'}`).join(', ');
  return `${rt.disabled ? 'disabled; ' : ''}formats ${formats || 'none'}; protocols ${rt.protocols.join(', ')}`;
}

/** Why one runtime cannot serve the component, or undefined when it can. */
function mismatch(rt: Runtime, format: string | undefined, protocol: string, named: boolean): string | undefined {
  if (rt.disabled) return 'disabled (spec.disabled: true)';
  const listing = rt.formats.filter((f) => f.name === format);
  if (format && listing.length === 0) return `does not list the format ${format}`;
  if (!named && listing.length > 0 && !listing.some((f) => f.autoSelect)) return `lists ${format} without autoSelect (it must be named in the spec)`;
  if (!rt.protocols.includes(protocol)) return `does not serve protocol ${protocol} (serves ${rt.protocols.join(', ')})`;
  return undefined;
}

/** The object at a path of the InferenceService (the component's model block). */
function blockAt(root: unknown, path: readonly string[]): Obj {
  let at: unknown = root;
  for (const key of path) at = isObj(at) ? at[key] : Array.isArray(at) ? at[Number(key)] : undefined;
  return isObj(at) ? at : {};
}

async function runtimes(ctx: DiagnosisContext): Promise<Runtime[] | null> {
  try {
    const [namespaced, cluster] = await Promise.all([ctx.reader.servingRuntimes(ctx.target.namespace), ctx.reader.clusterServingRuntimes()]);
    return [...namespaced.map((o) => runtimeOf('ServingRuntime', o)), ...cluster.map((o) => runtimeOf('ClusterServingRuntime', o))];
  } catch (error) {
    if (error instanceof ForbiddenError) return null;
    throw error;
  }
}

/** Evidence naming the format, runtime and protocol asked for, and why each runtime that exists does not fit. */
export async function runtimeChoiceEvidence(ctx: DiagnosisContext, componentName = 'predictor'): Promise<Evidence[]> {
  const component = componentsOf(ctx.target.isvc).find((c) => c.name === componentName && !c.canary);
  const model = blockAt(ctx.target.isvc, component?.modelPath ?? []);
  const protocol = typeof model.protocolVersion === 'string' ? model.protocolVersion : 'v1';
  const format = component?.modelFormat;
  const named = component?.runtime;
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const asked: Evidence = {
    kind: 'field',
    ref: subject,
    text: `modelFormat: ${format ?? 'unknown'}; runtime: ${named ?? '(any)'}; protocolVersion: ${protocol}${typeof model.protocolVersion === 'string' ? '' : ' (the default)'}`,
  };
  const all = await runtimes(ctx);
  if (all === null) return [asked, { kind: 'note', ref: subject, text: 'the runtimes could not be read (forbidden)' }];
  if (all.length === 0) return [asked, { kind: 'note', ref: subject, text: 'no ServingRuntime in the namespace and no ClusterServingRuntime exists in the cluster' }];
  const refFor = (rt: Runtime) => refOf(rt.kind, rt.kind === 'ServingRuntime' ? ctx.target.namespace : undefined, rt.name);
  const out: Evidence[] = [asked];
  if (named) {
    const rt = all.find((r) => r.name === named);
    if (!rt) out.push({ kind: 'note', ref: subject, text: `no runtime named ${named}; runtimes that exist: ${all.map((r) => r.name).join(', ')}` });
    else out.push({ kind: 'field', ref: refFor(rt), text: `${mismatch(rt, format, protocol, true) ?? 'fits'}: ${describe(rt)}` });
  }
  const listing = all.filter((rt) => rt.formats.some((f) => f.name === format) && rt.name !== named);
  for (const rt of listing.slice(0, 6)) out.push({ kind: 'field', ref: refFor(rt), text: `${mismatch(rt, format, protocol, false) ?? 'fits'}: ${describe(rt)}` });
  if (listing.length === 0 && !named) out.push({ kind: 'note', ref: subject, text: `no runtime lists the format ${format ?? '(none given)'}; runtimes that exist: ${all.map((r) => r.name).join(', ')}` });
  return out;
}
