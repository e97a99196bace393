import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertHistoryPage } from '@shared/ipc/alert-schemas'
import type { NewAlert } from '../../../src-main/db/stores/alert-store'
import { hashPassword } from '../../../src-main/shell/team/password-hashing'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'

// Read state is each account's own on the team server: a viewer opening the Alerts page
// (or calling alerts:mark-read) marks the alerts read for the viewer, and the admin's and
// editors' bells still count them, as does the person at the server's own machine.

const AT = 1_790_000_000

function alert(n: number): NewAlert {
  return {
    kind: 'rule',
    ruleId: 1,
    ruleName: 'Any move',
    healthKind: null,
    walletAddress: null,
    signature: `sig${n}`,
    firedAtSec: AT + n,
    text: `Move ${n}`,
    detail: { signatures: [`sig${n}`], amounts: [], transactionKind: null },
    deliverAfterSec: AT + n,
    dedupeKey: `rule:1:${n}`,
    channels: [],
  }
}

describe.each(ENGINES)('team server: read state per account, on %s', (engine: TestEngine) => {
  let fx: TeamFixture
  let database: TestDatabase | null = null
  const sockets: Record<string, TeamSocket> = {}
  const history = async (who: string): Promise<AlertHistoryPage> => {
    const answer = await sockets[who]!.call('alerts:history', { limit: 50 })
    if (!answer.ok) throw new Error(answer.error.message)
    return answer.result as AlertHistoryPage
  }
  const unread = async (who: string) => (await history(who)).unread

  beforeAll(async () => {
    if (engine === 'postgres') database = await createTestDatabase()
    fx = await startTestTeamServer({
      ...(database ? { databaseUrl: database.url } : {}),
      dataSource: 'service',
      users: [
        { name: 'ada', role: 'admin' },
        { name: 'eddie', role: 'editor' },
        { name: 'vera', role: 'viewer' },
      ],
    })
    // The alerts as the evaluator writes them, into the mirror the server serves.
    for (let n = 1; n <= 3; n++) await fx.accounts.alerts.insert(alert(n))
    for (const name of ['ada', 'eddie', 'vera']) {
      const ws = await fx.connect({ cookie: (await fx.signIn(name)).cookie })
      if (typeof ws === 'number') throw new Error(`${name}'s socket was refused (${ws})`)
      sockets[name] = ws
    }
  }, 60_000)
  afterAll(async () => {
    for (const ws of Object.values(sockets)) ws.close()
    await fx?.stop()
    await database?.drop()
  })

  it('a viewer reading the alerts leaves the admin’s and the editor’s unread counts as they were', async () => {
    expect(await unread('ada')).toBe(3)
    expect(await unread('vera')).toBe(3)
    const newest = (await history('vera')).alerts[0]
    expect(newest?.text).toBe('Move 3')
    const marked = await sockets.vera!.call('alerts:mark-read', { upToId: newest?.id })
    expect(marked).toEqual({ ok: true, result: { unread: 0 } })

    expect(await unread('vera')).toBe(0)
    expect((await history('vera')).alerts.every((a) => a.isRead)).toBe(true)
    expect(await unread('ada')).toBe(3)
    expect((await history('ada')).alerts.some((a) => a.isRead)).toBe(false)
    expect(await unread('eddie')).toBe(3)
    // The person at the server's own machine (no account) reads for themselves too.
    const local = await fx.core.dispatch('alerts:history', { limit: 1 })
    expect(local).toMatchObject({ ok: true, result: { unread: 3 } })
  })

  it('each account moves only its own mark, and never back', async () => {
    const [, second] = (await history('ada')).alerts
    await sockets.ada!.call('alerts:mark-read', { upToId: second?.id })
    expect(await unread('ada')).toBe(1)
    // An older page marked later changes nothing.
    const [, , oldest] = (await history('vera')).alerts
    await sockets.vera!.call('alerts:mark-read', { upToId: oldest?.id })
    expect(await unread('vera')).toBe(0)
    expect(await unread('eddie')).toBe(3)
  })

  it('an account removed and made again under its name starts with every alert unread', async () => {
    sockets.vera!.close()
    await fx.accounts.team.removeUser('vera')
    await fx.accounts.team.addUser(
      'vera',
      'viewer',
      await hashPassword('a-new-password-42'),
      0,
      'chosen',
    )
    const ws = await fx.connect({ cookie: (await fx.signIn('vera', 'a-new-password-42')).cookie })
    if (typeof ws === 'number') throw new Error(`vera's socket was refused (${ws})`)
    sockets.vera = ws
    expect(await unread('vera')).toBe(3)
    expect(await unread('ada')).toBe(1)
  })
})
