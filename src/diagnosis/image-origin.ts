/**
 * Where an image that cannot be found comes from: an entry of the controller's inferenceservice-config
 * (an "image" with its default version, e.g. explainers.alibi or storageInitializer), or the
 * service's own image / runtimeVersion fields (a runtimeVersion replaces the tag of the image). The
 * next step then names the ConfigMap key or the field, never registry credentials.
 */
import type { Evidence } from '../findings/types.js';
import { componentsOf, refOf } from '../kube/inference-service-view.js';
import type { DiagnosisContext } from './playbook.js';
import { serviceNextStepContext } from './service-next-step-context.js';
import { editCommand } from '../findings/next-step-context.js';

/** A registry's words for a tag or repository that does not exist. */
export const TAG_MISSING =
  /MANIFEST_UNKNOWN|manifest unknown|NAME_UNKNOWN|manifest for \S+ not found|code = NotFound|: not found\b|repository does not exist/i;
/** A registry that cannot be reached. */
export const UNREACHABLE =
  /connection refused|i\/o timeout|no such host|server gave HTTP response to HTTPS client|network is unreachable|no route to host/i;
/** A registry that refuses the credentials (or their absence). */
export const UNAUTHORIZED = /\b401\b|UNAUTHORIZED|\b403\b|DENIED|pull access denied|authentication required/;

/** Where KServe / KFServing installs its controller and the inferenceservice-config ConfigMap. */
const CONTROLLER_NAMESPACES = ['kserve', 'kfserving-system', 'kubeflow'];

/** The registry host of an image reference ("docker.io" when the reference names none). */
export function registryOf(image: string): string {
  const first = image.split('/')[0]!;
  return image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')
    ? first
    : 'index.docker.io';
}

/** An image reference split into repository and tag ("latest" when it names none). */
export function splitImage(image: string): { repo: string; tag: string } {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/')
    ? { repo: image.slice(0, at), tag: image.slice(at + 1) }
    : { repo: image, tag: 'latest' };
}

/**
 * What to say of an image whose tag does not exist: the inferenceservice-config key that set it when
 * the controller configures that image, else the service's runtimeVersion / image field.
 */
export async function missingTag(
  ctx: DiagnosisContext,
  image: string,
  component: string | undefined,
): Promise<{ title: string; evidence: Evidence[]; next: string }> {
  const { repo, tag } = splitImage(image);
  const fields = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace);
  const runtimeVersion = fields.fieldPath(component, 'runtimeVersion');
  const block = specBlock(ctx, component);
  // a custom container, or a spec that names the image itself: the spec set the tag, not the controller's config
  const custom =
    componentsOf(ctx.target.isvc).find((c) => c.name === (component ?? 'predictor') && !c.canary)?.userContainer ??
    false;
  const fromSpec = custom || (typeof block?.image === 'string' && splitImage(block.image).repo === repo);
  const configs = fromSpec
    ? []
    : await Promise.all(
        CONTROLLER_NAMESPACES.map((ns) => ctx.reader.configMap(ns, 'inferenceservice-config').catch(() => null)),
      );
  for (const cm of configs) {
    const hit = cm ? configuredImage(cm.data ?? {}, repo, image) : undefined;
    if (!cm || !hit) continue;
    const ns = cm.metadata?.namespace ?? '?';
    const versionKey =
      hit.entry.image === image
        ? 'image'
        : (Object.entries(hit.entry).find(([k, v]) => /ImageVersion$/.test(k) && v === tag)?.[0] ??
          'defaultImageVersion');
    const ref = refOf('ConfigMap', ns, 'inferenceservice-config');
    return {
      title: `The ${component ?? 'component'} image ${image} does not exist: its tag ${tag} comes from ${hit.path}.${versionKey} in ConfigMap ${ns}/inferenceservice-config`,
      evidence: [{ kind: 'field', ref, text: `${hit.path}: ${JSON.stringify(hit.entry)}` }],
      next: `kubectl edit configmap inferenceservice-config -n ${ns}: set ${hit.path}.${versionKey} (now ${versionKey === 'image' ? image : tag}) to ${versionKey === 'image' ? 'an image' : 'a tag'} that ${repo} has${Array.isArray(hit.entry.allowedImageVersions) ? ' and list it in allowedImageVersions' : ''}${versionKey === 'image' ? '' : `, or ${editCommand(ctx.target)}: set ${runtimeVersion} to a published tag`}`,
    };
  }
  const overrides =
    typeof block?.image === 'string' &&
    typeof block.runtimeVersion === 'string' &&
    block.image !== `${repo}:${block.runtimeVersion}`;
  return {
    title: `The ${component ?? 'component'} image ${image} does not exist: ${repo} has no tag ${tag}${overrides ? ` (${runtimeVersion} ${String(block!.runtimeVersion)} replaces the tag of ${String(block!.image)})` : ''}`,
    evidence: overrides
      ? [
          {
            kind: 'field',
            ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
            text: `image: ${String(block!.image)}; runtimeVersion: ${String(block!.runtimeVersion)} (the runtimeVersion is the tag used)`,
          },
        ]
      : [],
    next: overrides
      ? `${editCommand(ctx.target)}: remove ${runtimeVersion} (${String(block!.runtimeVersion)} replaces the tag of ${String(block!.image)}), or set it to ${splitImage(String(block!.image)).tag}, the tag the image names (${repo} has no ${tag})`
      : `${editCommand(ctx.target)}: set ${custom ? fields.fieldPath(component, 'image') : `${runtimeVersion} (or ${fields.fieldPath(component, 'image')})`} to ${custom ? 'an image' : 'a tag'} that exists (${repo} has no ${tag}; docker manifest inspect or the registry's UI lists what it has)`,
  };
}

/** The block of the component's spec that names its image (e.g. spec.predictor.pytorch). */
function specBlock(ctx: DiagnosisContext, component: string | undefined): Record<string, unknown> | undefined {
  const view = componentsOf(ctx.target.isvc).find((c) => c.name === (component ?? 'predictor') && !c.canary);
  let at: unknown = ctx.target.isvc;
  for (const key of view?.modelPath ?? []) at = (at as Record<string, unknown> | undefined)?.[key];
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined;
}

/** The entry of inferenceservice-config whose "image" is that repository (or that whole image), with its path ("explainers.alibi", "storageInitializer"). */
export function configuredImage(
  data: Record<string, string>,
  repo: string,
  image = repo,
): { path: string; entry: Record<string, unknown> } | undefined {
  const walk = (node: unknown, path: string): { path: string; entry: Record<string, unknown> } | undefined => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    const obj = node as Record<string, unknown>;
    if (obj.image === repo || obj.image === image) return { path, entry: obj };
    for (const [k, v] of Object.entries(obj)) {
      const found = walk(v, `${path}.${k}`);
      if (found) return found;
    }
    return undefined;
  };
  for (const [key, text] of Object.entries(data)) {
    try {
      const found = walk(JSON.parse(text), key);
      if (found) return found;
    } catch {}
  }
  return undefined;
}
