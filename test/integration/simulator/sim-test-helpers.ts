import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { createServiceClient } from '../../../src-main/service/service-client'
import type { ServiceClient } from '../../../src-main/service/service-client'
import type {
  SimulatorOptions,
  RunningSimulator,
} from '../../../src-main/simulator/simulator-server'
import { startSimulator } from '../../../src-main/simulator/simulator-server'
import type { WalletProfileId } from '../../../src-main/simulator/chain/wallet-profiles'

// Bodies of raw calls are read loosely on purpose: these tests inspect malformed answers too.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseJson = any

/** A simulator on a manual clock plus a client of the shared service client pointed at it. */
export async function startTestSimulator(options: SimulatorOptions = {}): Promise<{
  sim: RunningSimulator
  client: ServiceClient
  address: (p: WalletProfileId) => string
}> {
  const sim = await startSimulator({ seed: 7, clock: { mode: 'manual' }, ...options })
  const client = createServiceClient(
    singleOriginServiceSettings(sim.url, options.keys?.[0] ?? 'demo', { timeoutMs: 5_000 }),
  )
  return { sim, client, address: (p) => sim.chain.walletByProfile(p).address }
}

/** Raw JSON-RPC call, for inputs the typed client would refuse to send. */
export async function rawRpc(
  url: string,
  method: string,
  params: unknown,
  key = 'demo',
): Promise<{ status: number; body: LooseJson; headers: Headers }> {
  const res = await fetch(`${url}/?api-key=${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'raw', method, params }),
  })
  return { status: res.status, body: await res.json(), headers: res.headers }
}

/** Raw GET with the key header. */
export async function rawGet(
  url: string,
  path: string,
  key: string | null = 'demo',
): Promise<{ status: number; body: LooseJson; headers: Headers }> {
  const res = await fetch(`${url}${path}`, { headers: key === null ? {} : { 'x-api-key': key } })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // left as text
  }
  return { status: res.status, body, headers: res.headers }
}
