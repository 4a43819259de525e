export declare const PROJECT_ROOT: string;
export declare const BUNDLE_NAME: string;
export declare const INPUTS_NAME: string;
export declare function buildCli(outdir?: string, options?: { minify?: boolean }): Promise<{ bundle: string; sources: string[] }>;
