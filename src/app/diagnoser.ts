/**
 * The diagnosis every surface runs: the runner with every registered playbook. Built once per
 * process (`createDiagnoser`) and handed to the jobs that need it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import type { DiagnosisConfig } from '../config.js';
import type { TargetRef } from '../core/target-ref.js';
import { runDiagnosis, type DiagnoseOptions } from '../diagnosis/run-diagnosis.js';
import type { Report } from '../findings/types.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';

/** `held`: the InferenceService as this process already holds it (the watcher's informer), so the diagnosis does not ask for it again. */
export type Diagnoser = (
  target: TargetRef,
  signal?: AbortSignal,
  held?: DiagnoseOptions['inferenceService'],
) => Promise<Report>;

/** A diagnosis of one InferenceService with every registered playbook. */
export function diagnose(kubeConfig: KubeConfig, target: TargetRef, options: DiagnoseOptions = {}): Promise<Report> {
  return runDiagnosis(ALL_PLAYBOOKS, kubeConfig, target, options);
}

/** `signatures`: the catalog with the config's files (loaded once, at start). */
export function createDiagnoser(
  kubeConfig: KubeConfig,
  config: DiagnosisConfig,
  signatures?: SignatureCatalog,
): Diagnoser {
  return (target, signal, held) =>
    diagnose(kubeConfig, target, {
      config,
      ...(signatures ? { signatures } : {}),
      ...(signal ? { signal } : {}),
      ...(held ? { inferenceService: held } : {}),
    });
}
