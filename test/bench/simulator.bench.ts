import { startSimulator } from '../../src-main/simulator/simulator-server'

// Whale history over real HTTP: first page and a deep page latency (goal < 20 ms each), and
// the simulator's heap before and after walking thousands of pages (it must not grow with
// pages walked). Run: npx tsx test/bench/simulator.bench.ts (add NODE_OPTIONS=--expose-gc
// for exact heap figures).

export interface SimulatorBenchFigures {
  firstPageMs: number
  page5000Ms: number
  pagesWalked: number
  heapBeforeMb: number
  heapAfterMb: number
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function timedGet(url: string): Promise<{
  ms: number
  body: { data: { signature: string }[]; pagination: { nextCursor: string | null } }
}> {
  const t0 = performance.now()
  const res = await fetch(url, { headers: { 'x-api-key': 'demo' } })
  const body = (await res.json()) as {
    data: { signature: string }[]
    pagination: { nextCursor: string | null }
  }
  return { ms: performance.now() - t0, body }
}

const heapMb = () => {
  globalThis.gc?.()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

/** Runs the simulator benchmark and prints its figures. */
export async function runSimulatorBench(pagesToWalk = 3_000): Promise<SimulatorBenchFigures> {
  const sim = await startSimulator({ seed: 42, clock: { mode: 'manual' } })
  try {
    const whale = sim.chain.walletByProfile('whale')
    const base = `${sim.url}/v1/wallet/${whale.address}/history?limit=100`
    // Warm up the connection and the JIT, then measure the first page on a cold block cache.
    for (let i = 0; i < 20; i++)
      await timedGet(`${base}&before=${sim.chain.signatureOf(whale, 900_000 - i * 1000)}`)
    const first: number[] = []
    for (let i = 0; i < 5; i++) first.push((await timedGet(base)).ms)
    const firstPageMs = median(first)
    // The 5,000th page starts 499,900 transactions below the newest one.
    const page5000Cursor = sim.chain.signatureOf(
      whale,
      sim.chain.txCount(whale) - 1 - 4_999 * 100 + 1,
    )
    const deep: number[] = []
    for (let i = 0; i < 5; i++) deep.push((await timedGet(`${base}&before=${page5000Cursor}`)).ms)
    const page5000Ms = median(deep)

    // The block cache is bounded; warm it to its bound first so the comparison shows growth, not filling.
    let cursor: string | null = null
    const walk = async (pages: number) => {
      for (let page = 0; page < pages; page++) {
        const { body } = await timedGet(cursor ? `${base}&before=${cursor}` : base)
        cursor = body.pagination.nextCursor
      }
    }
    await walk(100)
    const heapBeforeMb = heapMb()
    await walk(pagesToWalk)
    const heapAfterMb = heapMb()
    const figures = { firstPageMs, page5000Ms, pagesWalked: pagesToWalk, heapBeforeMb, heapAfterMb }
    process.stdout.write(
      `simulator whale history: first page ${firstPageMs.toFixed(2)} ms, page 5,000 ${page5000Ms.toFixed(2)} ms (goal < 20 ms)\n` +
        `simulator heap: ${heapBeforeMb.toFixed(1)} MB before, ${heapAfterMb.toFixed(1)} MB after walking ${pagesToWalk} pages\n`,
    )
    return figures
  } finally {
    await sim.close()
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  runSimulatorBench().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
