// Contracts of the analysis framework, modelled on Istio's pkg/config/analysis.
import type { Level, Resource } from '../document/types.ts';
import type { KindInfo } from '../document/kinds.ts';
import type { ConfigView } from '../config/configView.ts';

export interface MessageArg {
  name: string;
  type: string;
}

/**
 * A message type of Istio's catalog. `P` types its parameters, so that a message built with
 * the wrong number or kind of parameters does not compile.
 */
export interface MessageType<P extends unknown[] = never> {
  code: string;
  name: string;
  level: Level;
  /** Go fmt template, byte for byte as in Istio's catalog. */
  template: string;
  args: MessageArg[];
  /** Short explanation in our own words (shown on hover). */
  description: string;
  /** A message of this type about `resource` (undefined for messages about no resource). */
  at(resource: Resource | undefined, ...params: P): AnalysisMessage;
}

/** Any message type, whatever its parameters. */
export type AnyMessageType = Omit<MessageType, 'at'>;

/** A message as an analyzer reports it, before rendering and location. */
export interface AnalysisMessage {
  type: AnyMessageType;
  params: readonly unknown[];
  resource?: Resource;
  /**
   * Field path inside the resource (`spec.http[0].route[1].destination.host`). When it
   * resolves, the message points at that field (and istioctl's line is the field's line).
   */
  fieldPath?: string;
  /**
   * Where the editor should point when Istio maps no field for the message (or a coarser
   * one): e.g. the subset that selects no pods. It moves the squiggle only; istioctl's
   * printed line still comes from `fieldPath`.
   */
  highlightPath?: string;
  /**
   * When the mapping repeats the last key of `highlightPath`: which of its occurrences the
   * editor points at (0 = the first). By default the last, whose value is the one read.
   */
  highlightOccurrence?: number;
}

/** Where in its resource a message points (see AnalysisMessage). */
export interface MessagePlace {
  fieldPath?: string;
  highlightPath?: string;
  highlightOccurrence?: number;
}

export interface AnalyzerMetadata {
  /** Istio's Metadata().Name, e.g. `virtualservice.DestinationHostAnalyzer`. */
  name: string;
  description: string;
  /** Kinds the analyzer reads (Istio's Inputs). */
  inputs: KindInfo[];
  /**
   * Inputs whose absence from the workspace only means fewer findings, never wrong ones, so
   * the analyzer runs without them (see analysis/skipped.ts). Every other input that file
   * analysis can lack (Pods, Services, Namespaces, Nodes, Secrets) is required.
   */
  optionalInputs?: KindInfo[];
}

/** What an analyzer sees: the mesh (shared lookups included) plus a way to report. */
export interface AnalysisContext extends ConfigView {
  exists(kind: KindInfo, namespace: string, name: string): boolean;
  report(message: AnalysisMessage, place?: MessagePlace): void;
  /** True when a newer workspace version superseded this run. */
  canceled(): boolean;
}

export interface Analyzer {
  metadata: AnalyzerMetadata;
  analyze(ctx: AnalysisContext): void;
  /**
   * Set by `perResourceAnalyzer`: the analysis is one independent check per resource of
   * `kind` (plus an optional `global` part), so an incremental run re-checks only the
   * resources that changed when no other input kind changed.
   */
  perResource?: PerResourceParts;
}

export interface PerResourceParts {
  kind: KindInfo;
  /** Must depend only on `resource` and on resources of *other* kinds. */
  check(ctx: AnalysisContext, resource: Resource): void;
  /** Runs after the checks whenever the analyzer runs (cross-resource findings). */
  global?(ctx: AnalysisContext): void;
}
