export declare const SYSTEM_CHROMIUM_ARGS: readonly string[];
export declare function findSystemChromium(pathVariable?: string, fixedPaths?: readonly string[]): string | undefined;
export declare function chromiumLaunchOptions(systemChromium: string | undefined): { executablePath?: string; args?: string[] };
