import { CHANNELS } from '@shared/ipc/contract'
import { IPC_SOCKET_PATH, socketProtocols } from '@shared/ipc/web-socket-protocol'

// The seeded generator behind the web shell's fuzz run: hostile and broken HTTP requests,
// WebSocket handshakes and frames, and contract messages with mangled inputs. The same
// seed always gives the same cases, so a failure names its seed and case to replay.

/** A deterministic pseudo-random source (mulberry32): the seed fixes every case. */
export class SeededRandom {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T
  }
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n)
    for (let i = 0; i < n; i++) out[i] = this.int(0, 255)
    return out
  }
}

/** What the shell needs to be addressed: its port and launch token. */
export interface FuzzTarget {
  port: number
  token: string
}

/** Raw bytes written on one connection; the connection is half-closed after them. */
export interface RawCase {
  kind: 'http' | 'handshake' | 'frames'
  /** One line saying what the case is, for a failure report. */
  label: string
  chunks: Buffer[]
  /**
   * Whether the client ends its side after writing. A complete request keeps it open
   * until answered (a half-close may lead the server to drop an answer still on its way);
   * an incomplete one ends it, or the server would wait out its header timeout.
   */
  halfClose: boolean
}

/** Contract messages sent over one authenticated socket. */
export interface ChannelCase {
  kind: 'channel'
  label: string
  messages: string[]
}

export type FuzzCase = RawCase | ChannelCase

const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'PATCH',
  'get',
  'G E T',
  '',
  'GETT',
  '\u00e9',
]
const TARGETS = [
  '/',
  '//[',
  '//[/]',
  '/%',
  '/%E0%A4%A',
  '/%ZZ',
  '/%00',
  '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '/../../etc/passwd',
  '/..%2f..%2fetc%2fpasswd',
  '/export/%E0%A4%A',
  '/export/',
  '/export/../index.html',
  '/export/00000000-0000-4000-8000-000000000000',
  IPC_SOCKET_PATH,
  `${IPC_SOCKET_PATH}/x`,
  '/index.html',
  '/assets/',
  '/assets/%2e%2e/%2e%2e/package.json',
  '/favicon.png',
  '*',
  'http://evil.example/',
  '//evil.example/x',
  'http://[::1/',
  '/\u00ff\u00fe',
  '/\u202e',
  '?',
  '#',
  '',
]
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', '', 'http/1.1']

function target(rnd: SeededRandom, t: FuzzTarget): string {
  let path = rnd.chance(0.3) ? rnd.pick(['/', '/index.html', '/favicon.png']) : rnd.pick(TARGETS)
  if (rnd.chance(0.1)) path = `/${'a'.repeat(rnd.int(100, 12_000))}`
  if (rnd.chance(0.3)) path += `?token=${rnd.chance(0.5) ? t.token : rnd.bytes(8).toString('hex')}`
  if (rnd.chance(0.15)) path += `&${rnd.bytes(rnd.int(1, 40)).toString('latin1')}`
  return path
}

function hostHeader(rnd: SeededRandom, t: FuzzTarget): string[] {
  if (rnd.chance(0.5)) return [`Host: 127.0.0.1:${t.port}`]
  return rnd.pick([
    [`Host: 127.0.0.1:${t.port}`],
    [`Host: localhost:${t.port}`],
    [`Host: evil.example:${t.port}`],
    ['Host: 127.0.0.1'],
    ['Host: '],
    [],
    [`Host: 127.0.0.1:${t.port}`, 'Host: evil.example'],
    [`Host: [::1]:${t.port}`],
    [`Host: 127.0.0.1:${t.port}\u0000`],
  ])
}

function originHeader(rnd: SeededRandom, t: FuzzTarget): string[] {
  return rnd.pick([
    [],
    [`Origin: http://127.0.0.1:${t.port}`],
    ['Origin: null'],
    ['Origin: https://evil.example'],
    [`Origin: http://127.0.0.1:${t.port}.evil.example`],
    ['Origin: %%%'],
  ])
}

function otherHeaders(rnd: SeededRandom): string[] {
  const out: string[] = []
  const n = rnd.int(0, 4)
  for (let i = 0; i < n; i++) {
    out.push(
      rnd.pick([
        'Connection: keep-alive',
        'Connection: close',
        'Accept: */*',
        'Range: bytes=0-0,-1',
        'Range: bytes=99999999999-',
        'If-None-Match: *',
        'Accept-Encoding: gzip, br',
        'Content-Type: application/json',
        `X-Long: ${'x'.repeat(rnd.int(100, 20_000))}`,
        'Bad Header: spaces in the name',
        ': no name',
        'X-Ctl: a\u0001b',
        `Cookie: heliograph=${'z'.repeat(rnd.int(1, 64))}`,
        'Expect: 100-continue',
      ]),
    )
  }
  return out
}

function bodyHeaders(rnd: SeededRandom): { headers: string[]; body: Buffer } {
  const body = rnd.bytes(rnd.int(0, 2_048))
  return rnd.pick([
    { headers: [], body: Buffer.alloc(0) },
    { headers: [`Content-Length: ${body.length}`], body },
    { headers: [`Content-Length: ${body.length + 500}`], body },
    { headers: ['Content-Length: -1'], body },
    { headers: ['Content-Length: 99999999999999999999'], body },
    { headers: ['Content-Length: 5', 'Content-Length: 6'], body },
    { headers: ['Transfer-Encoding: chunked'], body: Buffer.from(`zz\r\n${body.toString()}\r\n`) },
    {
      headers: ['Transfer-Encoding: chunked', `Content-Length: ${body.length}`],
      body: Buffer.from('5\r\nhello\r\n0\r\n\r\n'),
    },
  ])
}

function httpCase(rnd: SeededRandom, t: FuzzTarget): RawCase {
  // Mostly well-formed, so that requests get past the parser into the shell's own code.
  const method = rnd.chance(0.6) ? 'GET' : rnd.pick(METHODS)
  const path = target(rnd, t)
  const version = rnd.chance(0.75) ? 'HTTP/1.1' : rnd.pick(VERSIONS)
  const { headers, body } = rnd.chance(0.6)
    ? { headers: [], body: Buffer.alloc(0) }
    : bodyHeaders(rnd)
  const eol = rnd.chance(0.9) ? '\r\n' : rnd.pick(['\n', '\r', '\r\r\n'])
  const lines = [
    `${method} ${path} ${version}`,
    ...hostHeader(rnd, t),
    ...originHeader(rnd, t),
    ...otherHeaders(rnd),
    ...headers,
  ]
  const complete = rnd.chance(0.9)
  let head = lines.join(eol) + eol + (complete ? eol : '')
  const truncated = rnd.chance(0.05)
  if (truncated) head = head.slice(0, rnd.int(0, head.length))
  const bytes = Buffer.concat([Buffer.from(head, 'latin1'), body])
  return {
    kind: 'http',
    label: `http ${JSON.stringify(`${method} ${path.slice(0, 60)} ${version}`)}`,
    chunks: splitRandomly(rnd, bytes),
    halfClose: !complete || truncated || eol !== '\r\n' || headers.length > 0,
  }
}

function handshakeLines(rnd: SeededRandom, t: FuzzTarget, valid: boolean): string[] {
  const protocols = valid
    ? socketProtocols(t.token)
    : rnd.pick([
        socketProtocols('wrong'),
        [socketProtocols(t.token)[1] as string],
        ['heliograph'],
        [],
        [`launch-token.${t.token}${'x'.repeat(rnd.int(1, 5000))}`],
        [',,,'],
      ])
  return [
    `GET ${valid ? IPC_SOCKET_PATH : rnd.pick([IPC_SOCKET_PATH, '//[', '/', `${IPC_SOCKET_PATH}?token=${t.token}`])} HTTP/1.1`,
    ...(valid ? [`Host: 127.0.0.1:${t.port}`] : hostHeader(rnd, t)),
    ...(valid ? [`Origin: http://127.0.0.1:${t.port}`] : originHeader(rnd, t)),
    valid ? 'Upgrade: websocket' : rnd.pick(['Upgrade: websocket', 'Upgrade: h2c', 'Upgrade:']),
    'Connection: Upgrade',
    valid
      ? 'Sec-WebSocket-Version: 13'
      : rnd.pick([
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Version: 8',
          'Sec-WebSocket-Version: x',
        ]),
    valid
      ? 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='
      : rnd.pick(['Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Key: short', '']),
    ...(protocols.length > 0 ? [`Sec-WebSocket-Protocol: ${protocols.join(', ')}`] : []),
  ]
}

function handshakeCase(rnd: SeededRandom, t: FuzzTarget): RawCase {
  const head = handshakeLines(rnd, t, false).join('\r\n') + '\r\n\r\n'
  return {
    kind: 'handshake',
    label: `handshake ${JSON.stringify(head.slice(0, 80))}`,
    chunks: [Buffer.from(head, 'latin1'), rnd.bytes(rnd.int(0, 64))],
    halfClose: true,
  }
}

/** One WebSocket frame with every header field under the generator's control. */
function frame(rnd: SeededRandom, payload: Buffer): Buffer {
  const fin = rnd.chance(0.8) ? 0x80 : 0
  const rsv = rnd.chance(0.1) ? rnd.pick([0x40, 0x20, 0x10]) : 0
  const opcode = rnd.chance(0.8) ? rnd.pick([0x1, 0x2, 0x0, 0x8, 0x9, 0xa]) : rnd.int(0, 15)
  const masked = rnd.chance(0.9)
  const lengthMode = rnd.int(0, 9)
  const header: number[] = [fin | rsv | opcode]
  let claimed = payload.length
  if (lengthMode === 0) claimed = rnd.int(0, 125)
  const maskBit = masked ? 0x80 : 0
  const extended = Buffer.alloc(8)
  if (lengthMode === 1 || (lengthMode !== 2 && claimed < 126))
    header.push(maskBit | Math.min(claimed, 125))
  else if (lengthMode === 2 || claimed > 0xffff) {
    header.push(maskBit | 127)
    // Sometimes an absurd length: 2^63 - 1 or several GiB.
    const big = rnd.chance(0.5)
      ? BigInt(claimed)
      : rnd.pick([2n ** 63n - 1n, 2n ** 33n, 2n ** 24n + 1n])
    extended.writeBigUInt64BE(big)
    header.push(...extended)
  } else {
    header.push(maskBit | 126, (claimed >> 8) & 0xff, claimed & 0xff)
  }
  const mask = masked ? rnd.bytes(4) : Buffer.alloc(0)
  const body = Buffer.from(payload)
  if (masked)
    for (let i = 0; i < body.length; i++) body[i] = (body[i] as number) ^ (mask[i % 4] as number)
  return Buffer.concat([Buffer.from(header), mask, body])
}

function framesCase(rnd: SeededRandom, t: FuzzTarget): RawCase {
  const head = handshakeLines(rnd, t, true).join('\r\n') + '\r\n\r\n'
  const frames: Buffer[] = []
  const n = rnd.int(1, 6)
  for (let i = 0; i < n; i++) {
    const payload = rnd.chance(0.5)
      ? Buffer.from(invokeText(rnd, i))
      : rnd.bytes(rnd.pick([0, 1, 2, 125, 126, 127, 300, 70_000]))
    frames.push(frame(rnd, payload))
  }
  return {
    kind: 'frames',
    label: `frames ×${n} after a valid handshake`,
    chunks: [Buffer.from(head, 'latin1'), ...splitRandomly(rnd, Buffer.concat(frames))],
    halfClose: true,
  }
}

const SAMPLE_ADDRESS = 'Vote111111111111111111111111111111111111111'
const SAMPLE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER,
  1e308,
  '',
  ' ',
  'x'.repeat(300),
  SAMPLE_ADDRESS,
  '1111111111111111111111111111111111111111111',
  '\u202eevil',
  '\u001b[31mred',
  'http://10.0.0.1/',
  'https://evil.example/?api-key=secret',
  '../../etc/passwd',
  '2025-12-31',
  '9999-99-99',
  [],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
]
const FIELD_NAMES = [
  'address',
  'label',
  'walletId',
  'limit',
  'cursor',
  'filters',
  'mint',
  'direction',
  'from',
  'to',
  'exportId',
  'kind',
  'format',
  'destination',
  'dailyBudget',
  'jsonRpcUrl',
  'restUrl',
  'apiKey',
  'source',
  'confirm',
  'order',
  'depth',
  'ids',
  '__proto__',
]

/** A value of random shape, nested up to `depth`. */
function randomValue(rnd: SeededRandom, depth: number): unknown {
  if (depth <= 0 || rnd.chance(0.55)) return rnd.pick(SAMPLE_VALUES)
  if (rnd.chance(0.3))
    return Array.from({ length: rnd.int(0, 4) }, () => randomValue(rnd, depth - 1))
  const out: Record<string, unknown> = {}
  const n = rnd.int(0, 5)
  for (let i = 0; i < n; i++) out[rnd.pick(FIELD_NAMES)] = randomValue(rnd, depth - 1)
  return out
}

function invokeText(rnd: SeededRandom, id: number): string {
  // Mostly a well-formed envelope around a mangled input, so that the channels' own
  // validation and handlers run; a broken envelope closes the socket (1003).
  const shape = rnd.int(0, 29)
  if (shape === 0) return rnd.bytes(rnd.int(0, 200)).toString('latin1')
  if (shape === 1) return JSON.stringify(randomValue(rnd, 3))
  if (shape === 2) return '['.repeat(rnd.int(1, 5_000))
  const message: Record<string, unknown> = {
    type: rnd.chance(0.97) ? 'invoke' : rnd.pick(['reply', 'event', '']),
    id: rnd.chance(0.97) ? id : rnd.pick(SAMPLE_VALUES),
    channel: rnd.chance(0.85)
      ? rnd.pick(CHANNELS)
      : rnd.pick(['', 'constructor', '__proto__', 'toString', 'app:quit', 'x'.repeat(500)]),
  }
  if (rnd.chance(0.8)) message.input = randomValue(rnd, 4)
  return JSON.stringify(message)
}

function channelCase(rnd: SeededRandom): ChannelCase {
  const n = rnd.int(1, 8)
  return {
    kind: 'channel',
    label: `channel messages ×${n}`,
    messages: Array.from({ length: n }, (_, i) => invokeText(rnd, i + 1)),
  }
}

/** Splits bytes into 1–4 writes at random places (parsers must cope with any split). */
function splitRandomly(rnd: SeededRandom, bytes: Buffer): Buffer[] {
  const parts: Buffer[] = []
  let rest = bytes
  const cuts = rnd.int(0, 3)
  for (let i = 0; i < cuts && rest.length > 1; i++) {
    const at = rnd.int(1, rest.length - 1)
    parts.push(rest.subarray(0, at))
    rest = rest.subarray(at)
  }
  parts.push(rest)
  return parts
}

/**
 * The `index`th case of the run seeded with `seed`: the same pair always gives the same
 * case, whatever was generated before it.
 *
 * @example
 * const c = fuzzCase(7, 1234, { port, token }) // replays case 1234 of seed 7
 */
export function fuzzCase(seed: number, index: number, t: FuzzTarget): FuzzCase {
  const rnd = new SeededRandom((Math.imul(seed, 2_654_435_761) + index) >>> 0)
  const kind = rnd.next()
  if (kind < 0.45) return httpCase(rnd, t)
  if (kind < 0.6) return handshakeCase(rnd, t)
  if (kind < 0.8) return framesCase(rnd, t)
  return channelCase(rnd)
}
