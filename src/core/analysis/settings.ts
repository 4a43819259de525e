// User-controlled analysis settings, shared by the app (settings panel) and the CLI (flags).

export interface AnalysisSettings {
  /** `-S` style suppressions: `CODE=Kind ns/name` (glob) or the legacy `CODE=Kind name.namespace`. */
  suppressions: string[];
  /** Analyzer names to run; empty means all registered analyzers. */
  analyzers: string[];
  /** Add Istio's placeholder ingress-gateway Pod and Service (istioctl --use-kube=false does). */
  includePlaceholders: boolean;
  /** Namespace given to namespace-less objects (istioctl: `default`, or `-n`). */
  defaultNamespace: string;
  /** When set, only messages on resources of this namespace are kept (istioctl `-n`). */
  namespaceFilter?: string;
  /**
   * Report what the API server would refuse (CRD schema and CEL findings, duplicate mapping
   * keys) as MWB-API-SERVER-REJECTS. istioctl never reports these: false drops them all.
   */
  schemaFindings: boolean;
  /**
   * `workbench` (default): the files are the cluster, and an analyzer runs when the files hold
   * its inputs. `istioctl`: exactly what `istioctl analyze --use-kube=false` reads and reports
   * (its reader's kinds, the analyzers it skips, no schema findings; see istioctlMode.ts).
   */
  mode: 'workbench' | 'istioctl';
  /**
   * Run the Kiali pack (KIA codes) beside Istio's analyzers. Off by default (the CLI's
   * `--pack kiali` and the app's toggle turn it on); never in istioctl mode.
   */
  kiali?: boolean;
  /**
   * KIA codes dropped everywhere, as Kiali's `kiali_feature_flags.validations.ignore` does.
   * Undefined: Kiali's own default (KIA1301).
   */
  kialiIgnore?: readonly string[];
  /**
   * The pod CIDR derived pods take their addresses from, as an IPv4 CIDR of prefix length 24
   * or less (the CLI's `--pod-cidr`). Undefined: 10.244.0.0/14 (config/derivedWorkloads.ts).
   */
  podCidr?: string;
}

export function defaultAnalysisSettings(): AnalysisSettings {
  return { suppressions: [], analyzers: [], includePlaceholders: true, defaultNamespace: 'default', schemaFindings: true, mode: 'workbench' };
}
