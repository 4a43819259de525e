export interface BrowserEffects {
  findSystemChromium(): string | undefined;
  /** Undefined when Chromium (the system one at `path`, else Playwright's) starts; else why not. */
  launchProblem(path: string | undefined): Promise<string | undefined>;
  playwrightHostReachable(): Promise<boolean>;
  runPlaywrightInstall(): Promise<boolean>;
  runAptInstall(): Promise<boolean>;
  isRoot: boolean;
  hasAptGet: boolean;
  log(line: string): void;
}
export type BrowserSource = 'system' | 'playwright-cache' | 'playwright-install' | 'apt';
export type EnsureResult = { source: BrowserSource; path?: string } | { source: 'none'; message: string };
export declare const INSTRUCTION: string;
export declare function ensureBrowser(effects: BrowserEffects): Promise<EnsureResult>;
