import { describe, expect, it } from 'vitest';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView } from '../../src/core/config/configView.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';

const store = new ResourceStore([], {
  mode: 'cli',
  defaultNamespace: 'default',
  includePlaceholders: false,
  meshConfig: defaultMeshConfig(),
  meshNetworks: defaultMeshNetworks(),
});

describe('lookups record what they read', () => {
  it('a lookup built from another lookup, or from ConfigView reads, depends on their kinds', () => {
    const view = configView(store);
    let builds = 0;
    const pods = () => view.lookups.cached('pods', (s) => s.list(KINDS.Pod).length);
    const outer = () =>
      view.lookups.cached('outer', () => {
        builds++;
        // One kind through another lookup, one through the ConfigView itself.
        return pods() + view.list(KINDS.Service).length;
      });
    outer();
    outer();
    expect(builds).toBe(1);
    view.lookups.invalidate(new Set([KINDS.Gateway.id]));
    outer();
    expect(builds).toBe(1);
    view.lookups.invalidate(new Set([KINDS.Pod.id]));
    outer();
    expect(builds).toBe(2);
    view.lookups.invalidate(new Set([KINDS.Service.id]));
    outer();
    expect(builds).toBe(3);
    // A lookup already built still passes its kinds on to a new one that uses it.
    let second = 0;
    view.lookups.cached('second', () => (second++, pods()));
    view.lookups.invalidate(new Set([KINDS.Pod.id]));
    view.lookups.cached('second', () => (second++, pods()));
    expect(second).toBe(2);
  });
});
