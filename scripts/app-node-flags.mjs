// How the app's own process runs on plain Node (the web shell `npm start` opens): Node's
// flags and the environment it starts with. A sync allocates fast, and V8 and malloc would
// otherwise keep memory it has finished with (100 wallets syncing, peak RSS measured by
// test/bench/sync-memory.bench.ts):
// - with Node's default semi-spaces the young generation grew to tens of MB each: 314–350 MB
//   RSS; with semi-spaces of 8 MB, 234–240 MB (2 or 4 MB take less still, but V8 gives an
//   export's part threads the same, and the 1M export ran 8–15% slower);
// - after the one full collection at start-up, the old generation may grow to four times
//   what was live then before the next; page data that waited for the writer stays there
//   as garbage. A growth of 20% per full collection keeps it near what is live: 204–209 MB;
// - glibc gives each thread that allocates an arena of its own (up to 16 on 2 cores), each
//   keeping freed memory: two in all, 194–196 MB, with no measurable cost to the sync or the
//   export (src-main's threads are the mirror's writer and an export's parts).
export const APP_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=20']

/** Environment variables the app's process starts with, beside the caller's own. */
export const APP_NODE_ENV = { MALLOC_ARENA_MAX: '2' }

/** `env` (the caller's, by default) with the app's variables: for spawning the app's process. */
export function appNodeEnv(env = process.env) {
  return { ...env, ...APP_NODE_ENV }
}
