/**
 * The runtime SDK version this app serves (DESIGN.md "Validation contract": one constant, 0.3.x).
 * A package whose `sdk` requirement excludes it is refused, naming both.
 */
export const SDK_VERSION = '0.3.2';
