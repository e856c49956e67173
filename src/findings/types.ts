/**
 * The report's data model, shared by the runner, the playbooks, every renderer (text, JSON, Slack,
 * MCP) and the queue: a Report holds its target, whether it is Ready, the root-cause code and the
 * Findings, root cause first; a Finding holds a code from the catalog (catalog.ts), its subject, its
 * evidence (conditions, events, log excerpts with line numbers, fields, request-flow hops), the next
 * step a person takes and the remediation the bot can offer. `-o json` prints this shape (all but
 * `reads`, the diagnosis' answered reads, which stay in the process that made the report).
 */
import type { TargetRef } from '../core/target-ref.js';
import type { AnsweredReads } from '../kube/cluster-reader.js';
import type { FindingCode, Severity } from './catalog.js';

export interface ResolvedTargetRef extends TargetRef {
  /** e.g. serving.kserve.io/v1beta1; null when the InferenceService was not found. */
  apiVersion: string | null;
}

/**
 * One piece of evidence, sink-neutral: renderers (text, JSON, Block Kit) decide how it looks.
 * `ref` names the object it was read from, as "Kind namespace/name".
 */
export interface Evidence {
  kind: 'condition' | 'event' | 'log' | 'field' | 'probe' | 'hop' | 'link' | 'note';
  ref: string;
  /** One line a person reads: a condition "Ready=False (RevisionMissing): ...", an event message, a field value. */
  text?: string;
  /** kind=log: the container the lines come from, and whether from the previous instance. */
  container?: string;
  previous?: boolean;
  /** kind=log: the relevant lines (already redacted), with their 1-based line numbers in the log. */
  excerpt?: string[];
  lineNumbers?: number[];
  /** `yaml`: the excerpt is a YAML document (an object with its identity and deciding fields), shown as a block. */
  format?: 'yaml';
  /** kind=log: true when lines were left out of the excerpt. */
  truncated?: boolean;
  /** kind=link: where it points. kind=hop: the hop's state. */
  url?: string;
  state?: 'ok' | 'missing' | 'failing' | 'unknown';
  /** kind=hop: its state follows from a failure further on (a route not created while the revision is not ready). */
  consequence?: boolean;
}

/** A change the bot could make to fix a finding (a remediation action's offer), or a fix to make by hand (`action: 'manual'`). */
export interface Remediation {
  /** Stable action id, e.g. "raise-memory-limit", "skip-tag-resolution", "rollback-canary", "restart-pods", "manual". */
  action: string;
  summary: string;
  /** The object that would change, "Kind namespace/name". */
  target?: string;
  /** The exact change as a unified-diff-like list of lines ("- old", "+ new"). */
  diff?: string[];
  /** For manual fixes: the YAML or command to apply by hand. */
  manual?: string;
  needsApproval: boolean;
  /** Action parameters (opaque to renderers). */
  params?: Record<string, unknown>;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** The object the finding is about, "Kind namespace/name". */
  subject: string;
  /** One line: what is wrong. */
  title: string;
  evidence: Evidence[];
  remediation: Remediation | null;
  /** Set by the runner when a more specific finding explains this one. */
  consequenceOf?: FindingCode;
  /** predictor / transformer / explainer when the finding is about one component. */
  component?: string;
  /** The Knative revision (or deployment) the finding is about, when known. */
  revision?: string;
  /** The playbook that produced it. */
  playbook?: string;
  /** The step a person takes next: the exact field to edit or command to run, with this service's names. */
  next?: string;
  /**
   * Codes this finding explains beyond what its code explains (e.g. a model-load failure the model
   * server logged before exiting explains that container's crash loop); it is ranked before them.
   */
  explains?: FindingCode[];
}

export interface DiagnosisStats {
  durationMs: number;
  apiRequests: number;
}

export interface Report {
  target: ResolvedTargetRef;
  ready: boolean;
  rootCause: FindingCode | null;
  findings: Finding[];
  stats: DiagnosisStats;
  /**
   * No namespace was asked for and the default one (`namespace`) has no InferenceService of the name:
   * the only namespace that has one was diagnosed instead (report.target's).
   */
  followedFrom?: { namespace: string };
  /**
   * What the diagnosis read, as this process's runner got it back: a remediation offered right after
   * plans with it instead of reading again (remediation's `ActionContext.seen`). Not data: left out of
   * any JSON of the report, so a report from elsewhere (a queue's copy, an agent's answer) has none.
   */
  reads?: AnsweredReads;
}
