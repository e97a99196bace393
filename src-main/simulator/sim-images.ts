import { crc32, deflateSync } from 'node:zlib'
import { hashString } from './chain/prng'

// Collectible art for the simulator: each asset id gets its own small PNG (a two-colour
// pattern from the id's hash), so the demo shows images without any network.

/** The invented host simulated collectibles name their images under (chain views). */
export const SIM_IMAGE_HOST = 'https://assets.heliograph-sim.invalid/'

/** Where the simulator serves them: `/__sim/images/<asset id>.png`. */
export const SIM_IMAGE_PATH = '/__sim/images/'

const SIZE = 48

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A PNG for an asset id: the same id always draws the same picture.
 *
 * @example
 * simulatedImage('7Hq…') // <Buffer 89 50 4e 47 …>
 */
export function simulatedImage(assetId: string): Buffer {
  const h = hashString(assetId)
  const a = [(h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff]
  const b = [255 - (a[0] as number), 255 - (a[1] as number), 255 - (a[2] as number)]
  const cell = 4 + (h % 8)
  const rows: Buffer[] = []
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 3)
    for (let x = 0; x < SIZE; x++) {
      const on = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0
      row.set(on ? a : b, 1 + x * 3)
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(SIZE, 0)
  header.writeUInt32BE(SIZE, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // truecolour
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
