import { z } from 'zod';

/**
 * Loose, typed views of the custom resources a diagnosis reads. Every field is optional and unknown
 * fields pass through: a diagnosis must work on whatever a real cluster (of any release) returns.
 */
export const conditionSchema = z
  .object({
    type: z.string(),
    status: z.string().optional(),
    reason: z.string().optional(),
    message: z.string().optional(),
    severity: z.string().optional(),
    lastTransitionTime: z.string().optional(),
  })
  .passthrough();
export type Condition = z.infer<typeof conditionSchema>;

export const ownerReferenceSchema = z
  .object({
    apiVersion: z.string().optional(),
    kind: z.string(),
    name: z.string(),
    uid: z.string().optional(),
    controller: z.boolean().optional(),
  })
  .passthrough();

export const metadataSchema = z
  .object({
    name: z.string(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    generation: z.number().optional(),
    creationTimestamp: z.string().optional(),
    labels: z.record(z.string()).optional(),
    annotations: z.record(z.string()).optional(),
    ownerReferences: z.array(ownerReferenceSchema).optional(),
  })
  .passthrough();
export type ObjectMeta = z.infer<typeof metadataSchema>;

const looseRecord = z.record(z.unknown());

/** Any object: metadata, a spec and a status with conditions. */
export const kubeObjectSchema = z
  .object({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: metadataSchema,
    spec: looseRecord.optional(),
    status: z
      .object({
        conditions: z.array(conditionSchema).optional(),
        observedGeneration: z.number().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type KubeObject = z.infer<typeof kubeObjectSchema>;

const trafficTargetSchema = z
  .object({
    revisionName: z.string().optional(),
    configurationName: z.string().optional(),
    latestRevision: z.boolean().optional(),
    percent: z.number().optional(),
    tag: z.string().optional(),
    url: z.string().optional(),
  })
  .passthrough();
export type TrafficTarget = z.infer<typeof trafficTargetSchema>;

export const knativeServiceSchema = kubeObjectSchema.extend({
  status: z
    .object({
      conditions: z.array(conditionSchema).optional(),
      observedGeneration: z.number().optional(),
      url: z.string().optional(),
      latestCreatedRevisionName: z.string().optional(),
      latestReadyRevisionName: z.string().optional(),
      traffic: z.array(trafficTargetSchema).optional(),
    })
    .passthrough()
    .optional(),
});
export type KnativeService = z.infer<typeof knativeServiceSchema>;

export const revisionSchema = kubeObjectSchema.extend({
  status: z
    .object({
      conditions: z.array(conditionSchema).optional(),
      observedGeneration: z.number().optional(),
      serviceName: z.string().optional(),
      logUrl: z.string().optional(),
      imageDigest: z.string().optional(),
      containerStatuses: z
        .array(z.object({ name: z.string().optional(), imageDigest: z.string().optional() }).passthrough())
        .optional(),
      actualReplicas: z.number().optional(),
      desiredReplicas: z.number().optional(),
    })
    .passthrough()
    .optional(),
});
export type Revision = z.infer<typeof revisionSchema>;

export const inferenceServiceSchema = kubeObjectSchema.extend({
  spec: looseRecord.optional(),
  status: z
    .object({
      conditions: z.array(conditionSchema).optional(),
      observedGeneration: z.number().optional(),
      url: z.string().optional(),
      address: z.object({ url: z.string().optional() }).passthrough().optional(),
      traffic: z.number().optional(),
      canaryTraffic: z.number().optional(),
      components: z.record(looseRecord).optional(),
      modelStatus: looseRecord.optional(),
      default: looseRecord.optional(),
      canary: looseRecord.optional(),
    })
    .passthrough()
    .optional(),
});
export type InferenceServiceObject = z.infer<typeof inferenceServiceSchema>;

/** Parses a list's items with a schema, skipping (not failing on) items a cluster returns in an unexpected shape. */
export function parseItems<T>(schema: z.ZodType<T>, items: unknown): T[] {
  if (!Array.isArray(items)) return [];
  const out: T[] = [];
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
