// Analyzers of the "telemetry" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';
import { conflictingServiceEntryProtocolAnalyzer } from '../serviceentry/conflictingProtocols.ts';
import { serviceEntryProtocolAddressesAnalyzer } from '../serviceentry/protocolAddresses.ts';
import { sidecarSelectorAnalyzer } from '../sidecar/selector.ts';
import { telemetryDefaultSelectorAnalyzer } from '../telemetry/defaultSelector.ts';
import { telemetryLightstepAnalyzer } from '../telemetry/lightstep.ts';
import { telemetryProviderAnalyzer } from '../telemetry/providers.ts';
import { telemetrySelectorAnalyzer } from '../telemetry/selector.ts';

export const telemetryGroup: AnalyzerGroup = {
  analyzers: [
    sidecarSelectorAnalyzer,
    serviceEntryProtocolAddressesAnalyzer,
    conflictingServiceEntryProtocolAnalyzer,
    telemetryProviderAnalyzer,
    telemetrySelectorAnalyzer,
    telemetryDefaultSelectorAnalyzer,
    telemetryLightstepAnalyzer,
  ],
};
