// Node flags of the app's own process when it runs on plain Node (the web shell `npm start`
// opens). V8's young generation otherwise grows to tens of MB per semi-space while a sync
// allocates fast, and keeps that memory: 100 wallets syncing peaked at 314–350 MB RSS, and
// at 240–265 MB with semi-spaces of at most 8 MB, at the same sync speed.
export const APP_NODE_FLAGS = ['--max-semi-space-size=8']
