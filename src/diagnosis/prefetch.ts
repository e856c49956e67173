/**
 * The speed machinery of a diagnosis, in one place, so the runner only finds, runs and finishes:
 *
 * - **The first wave.** The lookup of the service goes out first, with every read that depends only
 *   on its name and namespace (first-wave.ts: the shared related objects and each playbook's
 *   `firstWave`), through the one memoised reader the playbooks then read from.
 * - **The lazy playbook loader.** A loader of the playbooks (the CLI's) is called once the shared
 *   reads are out, so their modules load in the time of that round trip; their own first-wave
 *   reads follow before any answer is needed.
 * - **The discovery hint.** A hint an earlier process left (kube/served-groups.ts) lets the wave go
 *   out before discovery answers; when a fresh discovery contradicts it, or the service is not
 *   found by a recent one, the wave starts again on a new reader that goes by the fresh answer.
 * - **The LLMInferenceService lookup** goes out in the same wave when it is asked for, or when the
 *   cluster is known to serve it; otherwise only once no InferenceService has the name.
 *
 * What it answers is the runner's input: the reader (its memo holds the answers), the playbooks and
 * the services found. Nothing is handed over behind the runner's back.
 */
import type { DiagnosisConfig } from '../config.js';
import type { KubeClients } from '../kube/client.js';
import { ClusterReader, type FoundInferenceService } from '../kube/cluster-reader.js';
import { ForbiddenError } from '../kube/errors.js';
import type { CustomResource } from '../kube/resources.js';
import { firstWaveTarget, startFirstWave } from './first-wave.js';
import type { Playbook } from './playbook.js';
import { isvcPlaybooks, startLlmFirstWave } from './run-llm-diagnosis.js';

/**
 * The playbooks a diagnosis runs, or a loader of them. A loader is called once the first wave's
 * shared reads and the InferenceService lookup are out, so the playbooks' modules load while the
 * cluster answers (a CLI process loads them once, in the time of that round trip); their own
 * first-wave reads follow as soon as they are loaded, before any answer is needed.
 */
export type PlaybookSource = readonly Playbook[] | (() => Promise<readonly Playbook[]>);

export interface PrefetchRequest {
  source: PlaybookSource;
  clients: KubeClients;
  namespace: string;
  name: string;
  /** The kind asked for (or held); undefined: an InferenceService, else an LLMInferenceService of the name. */
  kind: 'isvc' | 'llmisvc' | undefined;
  config: DiagnosisConfig;
  /** The service as this process already holds it (the watcher's informer): no request for it. */
  held?: { resource: CustomResource; object: unknown };
}

/** The lookup was refused: the reader holds the refusals (BOT_FORBIDDEN). */
export interface RefusedLookup {
  refused: true;
  reader: ClusterReader;
}

export interface Prefetched {
  refused: false;
  /** The reader every read of this diagnosis goes through, the first wave's answers in its memo. */
  reader: ClusterReader;
  playbooks: readonly Playbook[];
  /** The InferenceService of the name; null when there is none, or an LLMInferenceService was asked for. */
  found: FoundInferenceService | null;
  /** The LLMInferenceService lookup, when it went out with the first wave. */
  llmLookup: Promise<FoundInferenceService | null> | undefined;
}

/** Lets the requests just started go out (one turn of the event loop: connections opened, requests written), then calls `load`. */
async function loadWhileRequestsAreOut<T>(load: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  return load();
}

/** A read awaited later (or never): not an unhandled rejection meanwhile. */
function quiet(read: Promise<unknown> | undefined): void {
  read?.catch(() => undefined);
}

/**
 * Looks the service up with the first wave of reads (restarted once when the discovery hint it went
 * by does not hold). Throws what the lookup throws, except a refusal, which it returns.
 */
export async function prefetch(request: PrefetchRequest): Promise<Prefetched | RefusedLookup> {
  const { namespace, name, kind, config, held } = request;
  const load = typeof request.source === 'function' ? request.source : async () => request.source as Playbook[];
  let playbooks = typeof request.source === 'function' ? undefined : request.source;
  let reader!: ClusterReader;
  let found: FoundInferenceService | null | undefined;
  let llmLookup: Promise<FoundInferenceService | null> | undefined;
  try {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      reader = new ClusterReader(request.clients);
      if (held && attempt === 0) reader.knowAs(namespace, name, held, kind ?? 'isvc');
      if (kind === 'llmisvc') {
        llmLookup = reader.llmInferenceService(namespace, name);
        quiet(llmLookup);
        if (!playbooks) playbooks = await loadWhileRequestsAreOut(load);
        startLlmFirstWave(reader, firstWaveTarget(reader, namespace, name), config, playbooks);
        found = null;
        break;
      }
      // the InferenceService first: its answer comes back first, and the playbooks start on it
      const lookup = reader.inferenceService(namespace, name);
      llmLookup =
        kind !== 'isvc' && !held && reader.llmInferenceServiceLikelyServed()
          ? reader.llmInferenceService(namespace, name)
          : undefined;
      quiet(llmLookup);
      const waveTarget = firstWaveTarget(reader, namespace, name);
      if (!playbooks) {
        startFirstWave(reader, waveTarget, config, []);
        quiet(lookup); // awaited below; not unhandled while the playbooks load
        playbooks = await loadWhileRequestsAreOut(load);
      }
      startFirstWave(reader, waveTarget, config, isvcPlaybooks(playbooks));
      if (llmLookup) startLlmFirstWave(reader, waveTarget, config, playbooks);
      // a discovery hint from an earlier process that a fresh discovery contradicts: start again by the fresh answer
      if (!(await reader.hintHeld())) {
        quiet(lookup);
        await reader.settled();
        continue;
      }
      found = await lookup;
      // not found by a recent hint that went unchecked: a fresh discovery says whether to look again
      if (!found && !(llmLookup && (await llmLookup.catch(() => null))) && !(await reader.hintHeld(true))) {
        await reader.settled();
        continue;
      }
      break;
    }
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
    return { refused: true, reader };
  }
  // every path to here loaded the playbooks: the first wave does, before it waits for any answer
  if (!playbooks) throw new Error('the first wave ended without loading the playbooks');
  return { refused: false, reader, playbooks, found: found ?? null, llmLookup };
}

/**
 * The LLMInferenceService of the name when the diagnosis is about one: asked for, or no
 * InferenceService has the name (KServe 0.16 serves it at v1alpha1 only, which every KServe serves
 * for its runtimes: asked only now, a wave later, unless it went out with the first wave). Its
 * playbooks' first-wave reads start as soon as it is found, when they did not go out then. Null
 * when there is none, or reading it was refused.
 */
export async function llmServiceOf(
  prefetched: Prefetched,
  request: PrefetchRequest,
): Promise<FoundInferenceService | null> {
  const { reader, found, llmLookup, playbooks } = prefetched;
  const { namespace, name, kind } = request;
  if (kind !== 'llmisvc' && (found || kind === 'isvc')) return null;
  const llm = await (llmLookup ?? reader.llmInferenceService(namespace, name)).catch((error: unknown) => {
    if (error instanceof ForbiddenError) return null;
    throw error;
  });
  if (llm && !llmLookup) startLlmFirstWave(reader, firstWaveTarget(reader, namespace, name), request.config, playbooks);
  return llm;
}
