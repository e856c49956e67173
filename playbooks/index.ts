/** The one registry of playbooks: a playbook that is not listed here does not run (a test checks). */
import type { Playbook } from '../src/diagnosis/playbook.js';
import { controllerReconcile } from './controller-reconcile.js';
import { imagePull } from './image-pull.js';
import { inferenceServiceStatus } from './inference-service-status.js';
import { ingressProbes } from './ingress-probes.js';
import { knativeService } from './knative-service.js';
import { llmConditions } from './llm-conditions.js';
import { llmRouter } from './llm-router.js';
import { llmRoutingGroup } from './llm-routing-group.js';
import { llmWorkloads } from './llm-workloads.js';
import { localModelCache } from './local-model-cache.js';
import { modelContainer } from './model-container.js';
import { modelcar } from './modelcar.js';
import { multinodeWorkers } from './multinode-workers.js';
import { modelServerLog } from './model-server-log.js';
import { podScheduling } from './pod-scheduling.js';
import { requestFlow } from './request-flow.js';
import { servingNotes } from './serving-notes.js';
import { storageInitializer } from './storage-initializer.js';
import { storageInitializerInjection } from './storage-initializer-injection.js';
import { stoppedService } from './stopped-service.js';
import { tagResolution } from './tag-resolution.js';
import { tracingLinks } from './tracing-links.js';
import { trafficSplit } from './traffic-split.js';
import { workloadEvents } from './workload-events.js';

export const ALL_PLAYBOOKS: readonly Playbook[] = [
  inferenceServiceStatus,
  stoppedService,
  controllerReconcile,
  knativeService,
  storageInitializer,
  storageInitializerInjection,
  localModelCache,
  modelcar,
  multinodeWorkers,
  modelContainer,
  modelServerLog,
  imagePull,
  tagResolution,
  podScheduling,
  workloadEvents,
  ingressProbes,
  requestFlow,
  trafficSplit,
  tracingLinks,
  servingNotes,
  // LLMInferenceService (kind: 'llmisvc'): run only for one; the router first, so that its reading of a
  // condition the objects contradict is the one a merged LLMISVC_NOT_READY shows
  llmRouter,
  llmWorkloads,
  llmConditions,
  llmRoutingGroup,
];
