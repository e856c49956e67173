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
import type { Evidence, Finding } from '../findings/types.js';
import { editCommand } from '../findings/next-step-context.js';
import { kserveVersionOfImage } from '../signatures/version-facts.js';
import { controllerContainerOf, controllerPods } from './controller-lines.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

interface Runtime {
  kind: 'ServingRuntime' | 'ClusterServingRuntime';
  name: string;
  disabled: boolean;
  formats: Array<{ name: string; version?: string; autoSelect: boolean }>;
  protocols: string[];
}

function runtimeOf(kind: Runtime['kind'], o: KubeObject): Runtime {
  const spec = o.spec ?? {};
  const formats = Array.isArray(spec.supportedModelFormats)
    ? (spec.supportedModelFormats as unknown[]).filter(isObj)
    : [];
  return {
    kind,
    name: o.metadata.name,
    disabled: spec.disabled === true,
    formats: formats.map((f) => ({
      name: String(f.name ?? ''),
      ...(f.version !== undefined ? { version: String(f.version) } : {}),
      autoSelect: f.autoSelect === true,
    })),
    protocols: Array.isArray(spec.protocolVersions) ? (spec.protocolVersions as unknown[]).map(String) : ['v1'],
  };
}

function describe(rt: Runtime): string {
  const formats = rt.formats
    .map((f) => `${f.name}${f.version ? `:${f.version}` : ''}${f.autoSelect ? '' : ' (not autoSelect)'}`)
    .join(', ');
  return `${rt.disabled ? 'disabled; ' : ''}formats ${formats || 'none'}; protocols ${rt.protocols.join(', ')}`;
}

/** Every runtime installed, namespace ones first: kind, name, whether disabled, the formats it lists. */
function installedText(all: readonly Runtime[], namespace: string): string {
  const one = (rt: Runtime) =>
    `${rt.name}${rt.disabled ? ' (disabled)' : ''}: ${rt.formats.map((f) => `${f.name}${f.version ? `:${f.version}` : ''}`).join(', ') || 'no formats'}`;
  const namespaced = all.filter((rt) => rt.kind === 'ServingRuntime');
  const cluster = all.filter((rt) => rt.kind === 'ClusterServingRuntime');
  return `installed: ServingRuntimes in ${namespace}: ${namespaced.map(one).join('; ') || 'none'}; ClusterServingRuntimes: ${cluster.map(one).join('; ') || 'none'}`;
}

/**
 * The command that installs KServe's own ClusterServingRuntimes for a release: shipped apart from
 * kserve.yaml from 0.8 (kserve-runtimes.yaml up to 0.11, kserve-cluster-resources.yaml from 0.12);
 * undefined before 0.8 (no runtimes) or without a release.
 */
export function runtimesInstallCommand(version: string | undefined): string | undefined {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)$/.exec(version) : null;
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major === 0 && minor < 8) return undefined;
  const url = `https://github.com/kserve/kserve/releases/download/v${version}`;
  return major === 0 && minor < 12
    ? `kubectl apply -f ${url}/kserve-runtimes.yaml`
    : `kubectl apply --server-side -f ${url}/kserve-cluster-resources.yaml`;
}

/** The KServe release the controller runs, from its image tag (undefined when not visible or not a release tag). */
async function controllerRelease(ctx: DiagnosisContext): Promise<{ version?: string; image?: string }> {
  const pod = (await controllerPods(ctx))[0];
  const container = pod?.spec?.containers?.find((c) => c.name === controllerContainerOf(pod));
  const version = kserveVersionOfImage(container?.image);
  return { ...(container?.image ? { image: container.image } : {}), ...(version ? { version } : {}) };
}

/** Why one runtime cannot serve the component, or undefined when it can. */
function mismatch(rt: Runtime, format: string | undefined, protocol: string, named: boolean): string | undefined {
  if (rt.disabled) return 'disabled (spec.disabled: true)';
  const listing = rt.formats.filter((f) => f.name === format);
  if (format && listing.length === 0) return `does not list the format ${format}`;
  if (!named && listing.length > 0 && !listing.some((f) => f.autoSelect))
    return `lists ${format} without autoSelect (it must be named in the spec)`;
  if (!rt.protocols.includes(protocol))
    return `does not serve protocol ${protocol} (serves ${rt.protocols.join(', ')})`;
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
    const [namespaced, cluster] = await Promise.all([
      ctx.reader.listKind('ServingRuntime', ctx.target.namespace),
      ctx.reader.listKind('ClusterServingRuntime', undefined),
    ]);
    return [
      ...namespaced.map((o) => runtimeOf('ServingRuntime', o)),
      ...cluster.map((o) => runtimeOf('ClusterServingRuntime', o)),
    ];
  } catch (error) {
    if (error instanceof ForbiddenError) return null;
    throw error;
  }
}

/** Evidence naming the format, runtime and protocol asked for, and why each runtime that exists does not fit. */
export async function runtimeChoiceEvidence(ctx: DiagnosisContext, componentName = 'predictor'): Promise<Evidence[]> {
  return (await runtimeChoice(ctx, componentName)).evidence;
}

/** The finding with the runtimes' evidence, and the next step they decide in place of the message's. */
export function withRuntimeChoice(f: Finding, choice: RuntimeChoice): Finding {
  return {
    ...f,
    evidence: [...f.evidence, ...choice.evidence],
    ...(choice.next ? { next: choice.next } : {}),
    ...(choice.title ? { title: choice.title } : {}),
  };
}

export interface RuntimeChoice {
  evidence: Evidence[];
  /** The step that follows from the runtimes read: which runtime to name, enable or install, or which protocol to ask for. */
  next?: string;
  /** What the runtimes read show, when it says more than the controller's message: none installed at all. */
  title?: string;
}

/**
 * The evidence, and the next step it decides: the protocol a runtime listing the format serves, an
 * enabled runtime that fits, the runtime to install (none exists, or not the named one).
 */
export async function runtimeChoice(ctx: DiagnosisContext, componentName = 'predictor'): Promise<RuntimeChoice> {
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
  const edit = editCommand(ctx.target);
  const path = (key: string) => [...(component?.modelPath ?? ['spec', componentName]), key].join('.');
  if (all === null)
    return {
      evidence: [asked, { kind: 'note', ref: subject, text: 'the runtimes could not be read (forbidden)' }],
      next: `Evidence missing: the serving runtimes (the bot may not list them): kubectl get clusterservingruntimes; kubectl get servingruntimes -n ${ctx.target.namespace} shows which list ${format ?? 'the model format'} and protocol ${protocol}`,
    };
  if (all.length === 0) {
    const release = await controllerRelease(ctx);
    const install = runtimesInstallCommand(release.version);
    const how = install
      ? `${install} (KServe ${release.version}'s runtimes, read from the controller image ${release.image}${named ? `; it holds ${named}` : ''})`
      : `install KServe's runtimes of the installed release (kserve-runtimes.yaml up to 0.11, kserve-cluster-resources.yaml from 0.12${named ? `, which holds ${named}` : ''}; the release is the controller image's tag: kubectl get deployments -A -l control-plane=kserve-controller-manager -o wide)`;
    return {
      title: `No ServingRuntime or ClusterServingRuntime is installed, so ${named ? `none is named ${named}` : `none serves the model format ${format ?? '(none given)'}`}`,
      evidence: [
        asked,
        {
          kind: 'note',
          ref: subject,
          text: `no ServingRuntime in ${ctx.target.namespace} and no ClusterServingRuntime exists in the cluster${release.image ? ` (controller image ${release.image})` : ''}`,
        },
      ],
      next: `No ServingRuntime or ClusterServingRuntime is installed: ${how}, then the controller reconciles ${ctx.target.namespace}/${ctx.target.name} again`,
    };
  }
  const refFor = (rt: Runtime) =>
    refOf(rt.kind, rt.kind === 'ServingRuntime' ? ctx.target.namespace : undefined, rt.name);
  const out: Evidence[] = [asked];
  if (named) {
    const rt = all.find((r) => r.name === named);
    if (!rt)
      out.push({
        kind: 'note',
        ref: subject,
        text: `no runtime named ${named}; ${installedText(all, ctx.target.namespace)}`,
      });
    else
      out.push({
        kind: 'field',
        ref: refFor(rt),
        text: `${mismatch(rt, format, protocol, true) ?? 'fits'}: ${describe(rt)}`,
      });
  }
  const listing = all.filter((rt) => rt.formats.some((f) => f.name === format) && rt.name !== named);
  for (const rt of listing.slice(0, 6))
    out.push({
      kind: 'field',
      ref: refFor(rt),
      text: `${mismatch(rt, format, protocol, false) ?? 'fits'}: ${describe(rt)}`,
    });
  if (listing.length === 0 && (!named || all.some((r) => r.name === named)))
    out.push({
      kind: 'note',
      ref: subject,
      text: `no ${named ? 'other ' : ''}runtime lists the format ${format ?? '(none given)'}; ${installedText(all, ctx.target.namespace)}`,
    });
  return { evidence: out, next: choiceNext(all) };

  function choiceNext(all: Runtime[]): string {
    const names = all.map((r) => r.name).join(', ');
    const namedRt = named ? all.find((r) => r.name === named) : undefined;
    const fits = listing.find((rt) => mismatch(rt, format, protocol, true) === undefined);
    if (named && !namedRt)
      return `No runtime named ${named} exists (installed: ${names}): install ${named} (KServe ships it in kserve-cluster-resources / kserve-runtimes.yaml), or ${edit}: set ${path('runtime')} to ${fits?.name ?? `one of them that lists ${format ?? 'the format'}`}`;
    const enabled = fits ?? listing.find((rt) => !rt.disabled);
    if (namedRt?.disabled)
      return `${namedRt.kind} ${named} is disabled: ${edit}: set ${path('runtime')} to ${enabled ? `${enabled.name}, an enabled runtime that lists ${format}${enabled === fits ? '' : ` (it serves ${enabled.protocols.join(', ')}: set ${path('protocolVersion')} to ${enabled.protocols[0]} too)`}` : `an enabled runtime that lists ${format}`} (or remove it to let KServe choose), or enable it again: kubectl edit ${namedRt.kind.toLowerCase()} ${named}: spec.disabled: false`;
    const otherProtocol = listing.find((rt) => !rt.disabled && !rt.protocols.includes(protocol));
    if (!fits && otherProtocol)
      return `${edit}: set ${path('protocolVersion')} to ${otherProtocol.protocols[0]} (${otherProtocol.name} lists ${format} and serves ${otherProtocol.protocols.join(', ')}, not ${protocol})`;
    if (!fits && listing.length === 0)
      return `No installed runtime lists the model format ${format ?? '(none given)'} (installed: ${names}): install a ServingRuntime that serves it (or upgrade KServe to a release that ships one), or ${edit}: set ${path('modelFormat')} to a format they serve`;
    return `${edit}: set ${path('runtime')} to ${fits?.name ?? `a runtime that lists ${format} and protocol ${protocol}`}`;
  }
}
