import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'

// The web shell's `GET //[` finding (issue 12) held for the in-process demo simulator too:
// `new URL` threw out of its request handler before any route ran, ending the process
// (here: the test worker) that hosts the demo data.

function rawStatus(port: number, requestLine: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    )
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)))
    socket.on('error', reject)
  })
}

describe('simulator: an unparsable request URL is answered, never fatal', () => {
  let sim: RunningSimulator
  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
  })
  afterAll(() => sim.close())

  it('GET //[ and POST //[ get a 400 and the simulator keeps answering', async () => {
    expect(await rawStatus(sim.port, 'GET //[ HTTP/1.1')).toBe(400)
    expect(await rawStatus(sim.port, 'POST //[?api-key=x HTTP/1.1')).toBe(400)
    expect(await rawStatus(sim.port, 'GET /__sim/truth/%E0%A4%A HTTP/1.1')).toBeGreaterThanOrEqual(
      400,
    )
    const wallets = await fetch(`${sim.url}/__sim/wallets`)
    expect(wallets.status).toBe(200)
  })
})
