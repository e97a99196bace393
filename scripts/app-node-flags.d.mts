/** Node flags of the app's own process on plain Node (see app-node-flags.mjs). */
export declare const APP_NODE_FLAGS: readonly string[]
