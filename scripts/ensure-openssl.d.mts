export interface OpensslEffects {
  /** `openssl version`'s output, undefined when there is no working openssl. */
  version(): string | undefined;
  runAptInstall(): Promise<boolean>;
  isRoot: boolean;
  hasAptGet: boolean;
  log(line: string): void;
}
export type EnsureOpensslResult = { source: 'system' | 'apt'; version: string } | { source: 'none'; message: string };
export declare const INSTRUCTION: string;
export declare function ensureOpenssl(effects: OpensslEffects): Promise<EnsureOpensslResult>;
