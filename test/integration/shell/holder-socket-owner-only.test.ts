import { mkdirSync, statSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createCore, type Core } from '../../../src-main/app/core'
import { holderFilePath, readHolderAddress } from '../../../src-main/app/holder-address'
import { serveFolder } from '../../../src-main/shell/holder/holder-server'
import {
  HOLDER_HELLO_HEADER,
  HOLDER_SOCKET_PATH,
  HOLDER_TOKEN_HEADER,
  type HolderHello,
} from '@shared/ipc/holder-protocol'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// The holder's socket takes only its owner's commands, and only the contract: the socket
// and the file naming it are 0600, a connection must bring the file's token and a hello
// the holder can read, and a request outside the contract is refused. A data folder whose
// path is too long for a socket is served from the user's private runtime folder instead.

const KEY = 'holder-test-key-never-sent'

const hello: HolderHello = {
  command: 'test',
  dataSource: null,
  savePath: null,
  serviceUrl: null,
  apiKeyDigest: null,
  databaseUrlDigest: null,
}

/** Opens the holder's WebSocket with these headers; resolves to the socket or the HTTP status. */
function open(dataDir: string, headers: Record<string, string>): Promise<WebSocket | number> {
  const address = readHolderAddress(dataDir)
  if (address === null) throw new Error('no holder file')
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://holder${HOLDER_SOCKET_PATH}`, {
      createConnection: () => connect(address.socket),
      headers,
    })
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
    ws.once('message', () => resolve(ws))
    ws.once('error', reject)
  })
}

/** One call over an open holder socket, answered as an envelope. */
function invoke(ws: WebSocket, channel: string, input?: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: number; envelope?: unknown }
      if (message.type === 'reply' && message.id === 7) resolve(message.envelope)
    })
    ws.send(JSON.stringify({ type: 'invoke', id: 7, channel, input }))
  })
}

async function holderOn(dataDir: string): Promise<Core> {
  return createCore({
    dataDir,
    shell: 'web',
    version: 'test',
    apiKey: KEY,
    dataSource: 'service',
    serveOthers: (opening) => serveFolder({ dataDir, name: 'the test holder' }, opening),
  })
}

describe('the holder’s socket is its owner’s, and speaks only the contract', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('socket and holder file are 0600; a wrong token or hello is refused; an unknown channel is an error', async () => {
    const dir = join(temp.dir, 'held')
    const core = await holderOn(dir)
    try {
      const address = readHolderAddress(dir)
      expect(address?.socket).toBe(join(dir, 'heliograph.sock'))
      expect(statSync(join(dir, 'heliograph.sock')).mode & 0o777).toBe(0o600)
      expect(statSync(holderFilePath(dir)).mode & 0o777).toBe(0o600)
      expect(statSync(dir).mode & 0o777).toBe(0o700)

      const token = address?.token ?? ''
      expect(await open(dir, { [HOLDER_HELLO_HEADER]: JSON.stringify(hello) })).toBe(403)
      expect(
        await open(dir, {
          [HOLDER_TOKEN_HEADER]: `${token.slice(0, -1)}x`,
          [HOLDER_HELLO_HEADER]: JSON.stringify(hello),
        }),
      ).toBe(403)
      expect(
        await open(dir, { [HOLDER_TOKEN_HEADER]: token, [HOLDER_HELLO_HEADER]: '{"command":1}' }),
      ).toBe(400)

      const ws = await open(dir, {
        [HOLDER_TOKEN_HEADER]: token,
        [HOLDER_HELLO_HEADER]: JSON.stringify(hello),
      })
      if (typeof ws === 'number') throw new Error(`refused with ${ws}`)
      expect(await invoke(ws, 'shell:exec', { command: 'id' })).toMatchObject({
        ok: false,
        error: { name: 'InvalidInputError', message: 'Unknown channel “shell:exec”.' },
      })
      // The key is the holder's: nothing it answers carries it.
      const settings = await invoke(ws, 'settings:get')
      expect(JSON.stringify(settings)).not.toContain(KEY)
      ws.close()
    } finally {
      await core.close()
    }
  })

  it('a data folder whose path is too long for a socket is served from a private runtime folder', async () => {
    const deep = join(temp.dir, 'a-data-folder-with-a-long-name'.repeat(3), 'heliograph')
    mkdirSync(deep, { recursive: true })
    const core = await holderOn(deep)
    try {
      const socket = readHolderAddress(deep)?.socket ?? ''
      expect(socket.startsWith(deep)).toBe(false)
      expect(statSync(socket).mode & 0o777).toBe(0o600)
      const added = await runCli([
        ...['--data-dir', deep, '--api-key', KEY],
        ...['watch', 'add', testAddress(3), '--label', 'Deep'],
      ])
      expect(added.code, added.stderr).toBe(0)
      const listed = await core.dispatch('watchlist:list', undefined)
      expect(listed.ok && (listed.result as { label: string }[]).map((w) => w.label)).toEqual([
        'Deep',
      ])
    } finally {
      await core.close()
    }
  })
})
