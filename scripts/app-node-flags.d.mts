/** Node flags of the app's own process on plain Node (see app-node-flags.mjs). */
export declare const APP_NODE_FLAGS: readonly string[]
/** Environment variables the app's process starts with (see app-node-flags.mjs). */
export declare const APP_NODE_ENV: Readonly<Record<string, string>>
/** `env` (the caller's, by default) with the app's variables. */
export declare function appNodeEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
