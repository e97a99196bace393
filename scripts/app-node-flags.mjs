// Node flags of the app's own process when it runs on plain Node (the web shell `npm start`
// opens). V8 otherwise keeps memory a sync has finished with: with Node's default
// semi-spaces, 100 wallets syncing peaked at 314–350 MB RSS. The young generation grows to
// tens of MB per semi-space while a sync allocates fast (2 MB each here), and the old
// generation, after the one full collection at start-up, may grow to four times what was
// live then before the next: page data that waited for the writer stays there as garbage.
// A growth of 20% per full collection keeps it near what is live. 100 wallets syncing:
// 236–240 MB with semi-spaces of 8 MB alone, 188–194 MB with these, at a CPU time within
// the run-to-run spread (test/bench/sync-memory.bench.ts).
export const APP_NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=20']
