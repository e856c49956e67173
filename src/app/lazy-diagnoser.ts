/**
 * A Diagnoser that loads the playbooks and the runner on its first diagnosis: a `serve` role that
 * never diagnoses (the watcher, the web side) never loads them. `preload()` loads them at once (the
 * workers do, so their first job does not wait for it).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { DiagnosisConfig } from '../config.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import type { Diagnoser } from './diagnoser.js';

export interface LazyDiagnoser extends Diagnoser {
  preload(): Promise<void>;
}

export function lazyDiagnoser(
  kubeConfig: KubeConfig,
  config: DiagnosisConfig,
  signatures: () => SignatureCatalog,
): LazyDiagnoser {
  let loaded: Promise<Diagnoser> | null = null;
  const load = () =>
    (loaded ??= import('./diagnoser.js').then((m) => m.createDiagnoser(kubeConfig, config, signatures())));
  const diagnose = (async (target, signal, held) => (await load())(target, signal, held)) as LazyDiagnoser;
  diagnose.preload = async () => {
    await load();
  };
  return diagnose;
}
