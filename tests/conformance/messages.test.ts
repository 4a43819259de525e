// Our message catalog against Istio's messages.yaml: every code with its name, level,
// template and arguments, byte for byte. (The descriptions are ours on purpose.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { expect, it } from 'vitest';
import { ALL_MESSAGE_TYPES, MESSAGES } from '../../src/core/analysis/messages.ts';
import { describeWithSharedCorpus, SHARED_ANALYZERS } from './sharedCorpus.ts';

const MESSAGES_YAML = join(SHARED_ANALYZERS, 'messages.yaml');

interface IstioMessage {
  name: string;
  code: string;
  level: string;
  template: string;
  args?: Array<{ name: string; type: string }>;
}

const comparable = (m: { name: string; code: string; level: string; template: string; args?: ReadonlyArray<{ name: string; type: string }> }) => ({
  code: m.code,
  name: m.name,
  level: m.level,
  template: m.template,
  args: (m.args ?? []).map((a) => ({ name: a.name, type: a.type })),
});

describeWithSharedCorpus("message catalog against Istio's messages.yaml", [MESSAGES_YAML], () => {
  const istio = (jsyaml.load(readFileSync(MESSAGES_YAML, 'utf8')) as { messages: IstioMessage[] }).messages;

  it('has exactly the same codes', () => {
    expect(istio.length).toBeGreaterThanOrEqual(68);
    expect(ALL_MESSAGE_TYPES.map((m) => m.code).sort()).toEqual(istio.map((m) => m.code).sort());
  });

  it('has the same name, level, template and argument names and types for every code', () => {
    const ours = new Map(ALL_MESSAGE_TYPES.map((m) => [m.code, comparable(m)]));
    const differences = istio.map(comparable).filter((m) => JSON.stringify(ours.get(m.code)) !== JSON.stringify(m));
    // On failure, both versions of each differing message are shown.
    expect(differences.map((m) => ({ istio: m, ours: ours.get(m.code) }))).toEqual([]);
  });

  it('keys each catalog entry by its message name', () => {
    for (const [key, m] of Object.entries(MESSAGES)) expect(m.name, key).toBe(key);
  });
});
