import { describe, expect, inject, it } from 'vitest'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'

// A database URL without the password the server asks for: pg gives up on its own side of
// the sign-in. The open fails saying what is missing, and closes its socket: left open, the
// server would keep the half-signed-in session for its authentication_timeout (a minute),
// holding a connection slot and stalling every `drop database` on that server meanwhile.

/** Sockets this process holds open. */
const openSockets = (): number =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length

describe('PostgreSQL sign-in without a password', () => {
  it('fails saying the password is missing, and leaves no connection open', async () => {
    const url = new URL(inject('postgresServerUrl'))
    url.password = ''
    const before = openSockets()
    await expect(openPostgresDatabase(url.toString())).rejects.toThrow(
      /the server asks for a password and none was given; put it in the URL or in PGPASSWORD/,
    )
    await expect.poll(openSockets).toBe(before)
  })
})
