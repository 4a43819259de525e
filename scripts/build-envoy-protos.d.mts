export declare const OUTPUT: string;
export declare function readStamp(file?: string): string | undefined;
export declare function buildEnvoyDescriptors(options?: { ifStale?: boolean }): {
  built: boolean;
  output: string;
  ms?: number;
  files?: number;
  bytes?: number;
  omitted?: string[];
};
