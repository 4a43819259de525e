export declare const ROOT: string;
/** Where `npm run oracle -- build` puts istioctl and xds-oracle (outside the repository). */
export declare const BIN: string;
export declare const ISTIOCTL: string;
export declare const XDS_ORACLE: string;
export declare const ANALYZE_ORACLE: string;
export declare const DESCRIBE_ORACLE: string;
