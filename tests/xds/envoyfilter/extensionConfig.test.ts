// EXTENSION_CONFIG patches, transcribed from Istio's TestInsertedExtensionConfig
// (pilot/pkg/networking/core/envoyfilter/extension_configuration_patch_test.go).
import { describe, expect, it } from 'vitest';
import { insertedExtensionConfigurations } from '../../../src/core/xds/envoyfilter/extensions.ts';
import { runFor } from './helpers.ts';

const PATCHES = [
  { applyTo: 'EXTENSION_CONFIG', match: { context: 'SIDECAR_OUTBOUND' }, patch: { operation: 'ADD', value: { name: 'add-extension-config1' } } },
  { applyTo: 'EXTENSION_CONFIG', match: { context: 'SIDECAR_OUTBOUND' }, patch: { operation: 'ADD', value: { name: 'add-extension-config2' } } },
  { applyTo: 'EXTENSION_CONFIG', match: { context: 'SIDECAR_OUTBOUND' }, patch: { operation: 'MERGE', value: { name: 'merge-extension-config' } } },
];

describe('TestInsertedExtensionConfig', () => {
  const cases = [
    {
      name: 'add extension config',
      names: ['add-extension-config1', 'add-extension-config2'],
      want: [{ name: 'add-extension-config1' }, { name: 'add-extension-config2' }],
    },
    { name: 'miss extension config', names: ['random-extension-config'], want: [] },
    { name: 'only add extension config', names: ['merge-extension-config'], want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(insertedExtensionConfigurations(runFor(PATCHES), c.names)).toEqual(c.want);
    });
  }
});
