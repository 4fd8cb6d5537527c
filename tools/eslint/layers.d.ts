// Types of layers.js for the TypeScript code that reads it (test/architecture.test.ts).
export declare const LAYERS: readonly string[];
export declare const ROOT: readonly string[];
export declare function unitOf(relative: string): string | undefined;
export declare function refusal(from: string, to: string): string | undefined;
declare const plugin: { rules: Record<string, unknown> };
export default plugin;
