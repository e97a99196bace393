import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNELS, contract, type Channel } from '@shared/ipc/contract'
import type { Envelope } from '@shared/ipc/envelope'
import { stringFieldInputs } from '../../helpers/contract-string-fields'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'

// Issue 50, item 3: text checked at the edge. An outside review put a NUL into `feed:page`'s
// token, an alert rule's name and the header search, and PostgreSQL answered with its own
// error ("invalid byte sequence for encoding UTF8: 0x00") where SQLite gave the usual
// validation message. Here an admin's socket on a team server puts text into every string
// field of every channel, the fields found from the contract's own schemas: a NUL or a
// lone surrogate is refused by validation with one message, the same on both engines, and
// odd but valid text never brings a database's error text back.

/** Text no channel accepts, and the words its refusal uses. */
const UNSAFE: [text: string, refusal: RegExp][] = [
  ['a\u0000b', /holds a NUL character \(U\+0000\) at character 2;/],
  ['\u0000', /holds a NUL character \(U\+0000\) at character 1;/],
  ['ok\uD800', /holds a lone surrogate \(U\+D800, half of a character\) at character 3;/],
  ['\uDC00ok', /holds a lone surrogate \(U\+DC00, half of a character\) at character 1;/],
]

/** Odd text a field may hold: each reaches the handlers, and so the databases. */
const ODD = [
  'o\'brien\\\\%_"--;',
  '😀 صرافی \u202eevil',
  '\uFFFF\uFFFE\u0001\u001f',
  'x'.repeat(5_000),
  '1e309',
  '-0',
]

/** A database's own words, which a person must never be shown. */
const DATABASE_WORDS =
  /invalid byte sequence|invalid input syntax|syntax error at|SqliteError|SQLITE_|violates .*constraint|duplicate key value|does not exist|unterminated|character with byte sequence|out of range for type|value too long for type|bind message|prepared statement/i

/**
 * Channels the odd text is not sent to: they move the key, the service or the data source
 * (the session would reach for a service this test does not run) or empty the mirror. The
 * unsafe text is sent to every channel: it is refused before any handler runs.
 */
const NOT_FOR_ODD_TEXT = new Set<Channel>([
  'settings:set-api-key',
  'settings:update',
  'settings:set-data-source',
  'data:delete-all',
  'sync:start',
])

const fieldsOf = (channel: Channel) =>
  stringFieldInputs(contract[channel].input as Parameters<typeof stringFieldInputs>[0])

describe('every string field of every channel, checked at the edge', () => {
  const refusals = new Map<TestEngine, Map<string, string>>()

  describe.each(ENGINES)('on %s', (engine) => {
    let fx: TeamFixture
    let socket: TeamSocket
    let database: TestDatabase | null = null

    beforeAll(async () => {
      database = engine === 'postgres' ? await createTestDatabase() : null
      fx = await startTestTeamServer({
        dataSource: 'service',
        ...(database ? { databaseUrl: database.url } : {}),
        users: [{ name: 'ada', role: 'admin' }],
      })
      const ws = await fx.connect({ cookie: (await fx.signIn('ada')).cookie })
      if (typeof ws === 'number') throw new Error(`the socket was refused (${ws})`)
      socket = ws
    }, 120_000)
    afterAll(async () => {
      socket?.close()
      await fx?.stop()
      await database?.drop()
    })

    it('finds string fields in the contract to walk', () => {
      const fields = CHANNELS.flatMap((c) => fieldsOf(c).map((f) => `${c} ${f.path}`))
      expect(fields.length).toBeGreaterThan(100)
      // The three the review reproduced are among them.
      expect(fields).toContain('feed:page filters.token')
      expect(fields).toContain('alerts:add-rule name')
      expect(fields).toContain('lookup:search text')
    })

    it('refuses a NUL or a lone surrogate in any string field by validation, naming the field', async () => {
      const seen = new Map<string, string>()
      for (const channel of CHANNELS)
        for (const field of fieldsOf(channel))
          for (const [text, refusal] of UNSAFE) {
            const answer = await socket.call(channel, field.inputWith(text))
            const where = `${channel} ${field.path} ${JSON.stringify(text)}`
            expect(answer.ok, where).toBe(false)
            if (answer.ok) continue
            expect(answer.error.name, where).toBe('InvalidInputError')
            expect(answer.error.message, where).toMatch(refusal)
            expect(answer.error.message, where).toMatch(
              /text may not hold NUL characters or lone surrogates\.$/,
            )
            seen.set(where, answer.error.message)
          }
      refusals.set(engine, seen)
      expect(seen.size).toBeGreaterThan(400)
    }, 300_000)

    it('never answers odd or unsafe text with a database’s own error', async () => {
      let calls = 0
      for (const channel of CHANNELS) {
        if (NOT_FOR_ODD_TEXT.has(channel)) continue
        for (const field of fieldsOf(channel))
          for (const text of [...ODD, ...UNSAFE.map(([t]) => t)]) {
            const answer: Envelope<unknown> = await socket.call(channel, field.inputWith(text))
            calls++
            if (!answer.ok)
              expect(answer.error.message, `${channel} ${field.path}`).not.toMatch(DATABASE_WORDS)
          }
      }
      expect(calls).toBeGreaterThan(500)
    }, 300_000)

    it('answers a sign-in whose name holds a NUL as a wrong name, not a server error', async () => {
      const answer = await fx.postLogin('ada\u0000', fx.password('ada'))
      expect(answer.status).toBe(401)
      expect(answer.body).toContain('Wrong name or password.')
      expect(answer.body).not.toMatch(DATABASE_WORDS)
    })
  })

  it.runIf(ENGINES.length === 2)('gives the same refusal on SQLite and PostgreSQL', () => {
    const sqlite = refusals.get('sqlite')
    const postgres = refusals.get('postgres')
    expect(sqlite?.size).toBeGreaterThan(0)
    expect(postgres).toEqual(sqlite)
  })
})
