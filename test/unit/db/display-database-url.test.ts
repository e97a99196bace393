import { describe, expect, it } from 'vitest'
import { displayDatabaseUrl } from '../../../src-main/db/database-url'

// The database URL is shown in messages (which database could not be opened); its password
// never is, wherever the URL carries it.

const PASSWORD = 's3cr3t-Pa55'

describe('displayDatabaseUrl', () => {
  it('masks the password in the user part', () => {
    expect(displayDatabaseUrl(`postgres://app:${PASSWORD}@db.example:5432/heliograph`)).toBe(
      'postgres://app:***@db.example:5432/heliograph',
    )
  })

  it('masks a password given as a query parameter, which pg reads too', () => {
    const shown = displayDatabaseUrl(
      `postgres://app@db.example/heliograph?sslmode=verify-full&password=${PASSWORD}&sslpassword=${PASSWORD}x`,
    )
    expect(shown).not.toContain(PASSWORD)
    expect(shown).toBe(
      'postgres://app@db.example/heliograph?sslmode=verify-full&password=***&sslpassword=***',
    )
  })

  it('keeps the rest of the query as written when it holds no secret', () => {
    expect(
      displayDatabaseUrl(
        'postgresql://app@db.example/h?sslmode=verify-full&sslrootcert=/etc/ca.pem',
      ),
    ).toBe('postgresql://app@db.example/h?sslmode=verify-full&sslrootcert=/etc/ca.pem')
  })

  it('a URL that cannot be read is not shown at all (it may hold the password anywhere)', () => {
    expect(displayDatabaseUrl(`postgres://app:${PASSWORD}@db.example:port/h`)).toBe(
      'the PostgreSQL database (its URL cannot be read)',
    )
  })
})
