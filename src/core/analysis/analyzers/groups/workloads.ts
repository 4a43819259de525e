// Analyzers of the "workloads" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';
import { k8sAnnotationsAnalyzer } from '../annotations/k8s.ts';
import { alphaAnnotationsAnalyzer } from '../maturity/alpha.ts';
import { deprecationAnalyzer } from '../deprecation/deprecation.ts';
import { multiServiceAnalyzer } from '../deployment/services.ts';
import { applicationUIDAnalyzer } from '../deployment/pod.ts';
import { portNameAnalyzer } from '../service/portName.ts';
import { conditionAnalyzer } from '../conditions/conditions.ts';

export const workloadsGroup: AnalyzerGroup = {
  analyzers: [k8sAnnotationsAnalyzer, conditionAnalyzer, multiServiceAnalyzer, applicationUIDAnalyzer, deprecationAnalyzer, portNameAnalyzer],
  // Istio leaves the alpha-annotation check out of its default set (too noisy).
  optional: [alphaAnnotationsAnalyzer],
};
