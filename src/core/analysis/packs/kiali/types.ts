// The Kiali pack's contracts: a KIA finding (what Kiali calls an IstioCheck), the validation of
// one object (Kiali's IstioValidation: its checks and its `valid` flag) and a checker.
import type { KindInfo } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { KialiContext } from './context.ts';

/** Kiali's three levels; `unknown` is neither an error nor a warning (Kiali does not count it). */
export type KialiSeverity = 'error' | 'warning' | 'unknown';

/** One KIA finding, as Kiali's `models.Build(checkId, path)` makes it (severity may be changed after). */
export interface KialiCheck {
  code: string;
  checkId: string;
  severity: KialiSeverity;
  /** The catalog message, word for word. */
  message: string;
  /** Kiali's path, slash-separated: `spec/http[0]/route[0]/destination/host`. */
  path: string;
  /**
   * The same path as our analyzers write field paths (`spec.http[0].route[0].destination.host`),
   * for the editor to point at the field (AnalysisMessage.fieldPath).
   */
  fieldPath: string;
}

/** The object a validation is about (Kiali's IstioValidationKey, without the cluster). */
export interface KialiObjectRef {
  /** API group ('' for core), which tells Istio's Gateway from the Gateway API's. */
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Kiali's IstioValidation for one object: its checks and whether the checker found it valid. */
export interface KialiValidation {
  object: KialiObjectRef;
  resource?: Resource;
  checks: KialiCheck[];
  valid: boolean;
  /** Group checkers: the other objects a check is about (Kiali's References), as `namespace/name`. */
  references?: string[];
}

export interface KialiChecker {
  /** Kiali's Go name: `destinationrules.NoDestinationChecker`. */
  name: string;
  /** The kinds of the objects it validates. */
  kinds: readonly KindInfo[];
  /** KIA codes it can emit. */
  codes: readonly string[];
  /**
   * Validates the mesh. Object checkers (Kiali's `Checker`) return one validation per object of
   * their kind, findings or not; group checkers (Kiali's `GroupChecker`) return only the objects
   * they found something on. With `findingsOnly`, a checker may leave out the objects it has
   * no check for (runKialiPack drops them then anyway).
   */
  run(ctx: KialiContext, o?: { findingsOnly?: boolean }): KialiValidation[];
}
