// Every fuzz target, by name (`npm run fuzz -- --target NAME`).
import type { Target } from '../target.ts';
import { yamlTarget } from './yaml.ts';
import { locateTarget } from './locate.ts';
import { pipelineTarget } from './pipeline.ts';
import { cliArgsTarget } from './cliArgs.ts';
import { configDumpTarget } from './configDump.ts';
import { xdsSimulateTarget } from './xdsSimulate.ts';
import { shareLinkTarget } from './shareLink.ts';
import { pkiDecodeTarget, pkiInspectTarget } from './pki.ts';
import { ambientTarget } from './ambient.ts';
import { dumpDiffTarget } from './dumpDiff.ts';
import { routeTestsTarget } from './routeTests.ts';
import { durationsTarget } from './durations.ts';
import { quantitiesTarget } from './quantities.ts';
import { redactTarget } from './redact.ts';
import { pkiVerifyTarget } from './pkiVerify.ts';
import { metamorphicTarget } from './metamorphic.ts';
import { oracleAnalyzeTarget } from './oracleAnalyze.ts';
import { oracleXdsTarget } from './oracleXds.ts';

export const TARGETS: ReadonlyArray<Target<never>> = [
  yamlTarget,
  locateTarget,
  cliArgsTarget,
  configDumpTarget,
  xdsSimulateTarget,
  pkiDecodeTarget,
  pkiInspectTarget,
  pkiVerifyTarget,
  shareLinkTarget,
  ambientTarget,
  dumpDiffTarget,
  routeTestsTarget,
  durationsTarget,
  quantitiesTarget,
  redactTarget,
  pipelineTarget,
  metamorphicTarget,
  oracleAnalyzeTarget,
  oracleXdsTarget,
] as unknown as Array<Target<never>>;

export function targetByName(name: string): Target<never> | undefined {
  return TARGETS.find((t) => t.name === name);
}
