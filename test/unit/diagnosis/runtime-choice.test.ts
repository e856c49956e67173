import { describe, expect, it } from '@jest/globals';
import { runtimesInstallCommand } from '../../../src/diagnosis/runtime-choice.js';

describe("the command that installs KServe's runtimes for the controller's release", () => {
  it('names the release asset each release ships its runtimes in', () => {
    expect(runtimesInstallCommand('0.8.0')).toBe(
      'kubectl apply -f https://github.com/kserve/kserve/releases/download/v0.8.0/kserve-runtimes.yaml',
    );
    expect(runtimesInstallCommand('0.11.2')).toBe(
      'kubectl apply -f https://github.com/kserve/kserve/releases/download/v0.11.2/kserve-runtimes.yaml',
    );
    expect(runtimesInstallCommand('0.12.0')).toBe(
      'kubectl apply --server-side -f https://github.com/kserve/kserve/releases/download/v0.12.0/kserve-cluster-resources.yaml',
    );
    expect(runtimesInstallCommand('0.16.0')).toContain('/v0.16.0/kserve-cluster-resources.yaml');
  });

  it('gives none before 0.8 (no runtimes) or without a release', () => {
    expect(runtimesInstallCommand('0.7.0')).toBeUndefined();
    expect(runtimesInstallCommand(undefined)).toBeUndefined();
    expect(runtimesInstallCommand('>=0.7.0')).toBeUndefined();
  });
});
