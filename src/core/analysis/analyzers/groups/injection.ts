// Analyzers of the "injection" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';
import { injectionAnalyzer } from '../injection/injection.ts';
import { injectionImageAnalyzer } from '../injection/injectionImage.ts';
import { imageAutoAnalyzer } from '../injection/imageAuto.ts';
import { webhookAnalyzer } from '../webhook/webhook.ts';
import { externalControlPlaneAnalyzer } from '../externalcontrolplane/externalControlPlane.ts';
import { meshNetworksAnalyzer } from '../multicluster/meshNetworks.ts';
import { multiClusterServiceAnalyzer } from '../multicluster/service.ts';

export const injectionGroup: AnalyzerGroup = {
  analyzers: [
    externalControlPlaneAnalyzer,
    injectionAnalyzer,
    injectionImageAnalyzer,
    imageAutoAnalyzer,
    meshNetworksAnalyzer,
    webhookAnalyzer,
  ],
  multicluster: [multiClusterServiceAnalyzer],
};
