import { sql, type Kysely, type Transaction } from 'kysely'
import type { TeamRole } from '@shared/domain/team-roles'
import { DuplicateError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { Database } from '../schema'

/** A team server account as listed (never its password hash). */
export interface TeamUser {
  name: string
  role: TeamRole
  createdAtSec: number
}

/** A signed-in session with its account, found by the hash of its token. */
export interface TeamSession {
  userName: string
  role: TeamRole
  createdAtSec: number
  lastSeenAtSec: number
  /** The account still has its one-time password: the session may only choose a new one. */
  isPasswordOneTime: boolean
}

/** Who chose a password: an admin for someone else (one-time) or its account itself. */
export type PasswordKind = 'one-time' | 'chosen'

/**
 * The team server's accounts and sessions. Passwords arrive hashed and sessions by the
 * hash of their token: neither secret is ever written here.
 */
export class TeamAccountStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * Adds an account; a name already taken is a DuplicateError. Its password is one-time
   * unless the caller says it was chosen by the account's own person.
   */
  async addUser(
    name: string,
    role: TeamRole,
    passwordHash: string,
    nowSec: number,
    kind: PasswordKind = 'one-time',
  ): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const taken = await tx
        .selectFrom('team_users')
        .select('name')
        .where('name', '=', name)
        .executeTakeFirst()
      if (taken) throw new DuplicateError(`There is already a user named “${name}”.`, { name })
      await tx
        .insertInto('team_users')
        .values({
          name,
          role,
          password_hash: passwordHash,
          created_at_sec: nowSec,
          is_password_one_time: kind === 'one-time' ? 1 : 0,
        })
        .execute()
    })
  }

  /** Every account, by name. */
  async listUsers(): Promise<TeamUser[]> {
    const rows = await this.#db
      .selectFrom('team_users')
      .select(['name', 'role', 'created_at_sec'])
      .orderBy('name')
      .execute()
    return rows.map((r) => ({ name: r.name, role: r.role, createdAtSec: r.created_at_sec }))
  }

  /** An account's role and password hash, for signing in; null when there is no such name. */
  async credentials(name: string): Promise<{ role: TeamRole; passwordHash: string } | null> {
    const row = await this.#db
      .selectFrom('team_users')
      .select(['role', 'password_hash'])
      .where('name', '=', name)
      .executeTakeFirst()
    return row ? { role: row.role, passwordHash: row.password_hash } : null
  }

  /** Removes an account, signs out its sessions and forgets which alerts it had read. */
  async removeUser(name: string): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom('team_sessions').where('user_name', '=', name).execute()
      // What the account had read goes with it: a new account of the name starts unread.
      await tx.deleteFrom('alert_read_marks').where('reader', '=', name).execute()
      const gone = await tx.deleteFrom('team_users').where('name', '=', name).executeTakeFirst()
      if (gone.numDeletedRows === 0n) throw noSuchUser(name)
      await bumpRevision(tx)
    })
  }

  /** Changes an account's role; its sessions carry the new role from their next request. */
  async setRole(name: string, role: TeamRole): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const changed = await tx
        .updateTable('team_users')
        .set({ role })
        .where('name', '=', name)
        .executeTakeFirst()
      if (changed.numUpdatedRows === 0n) throw noSuchUser(name)
      await bumpRevision(tx)
    })
  }

  /**
   * Replaces an account's password and ends its sessions, all but `keepSessionHash` (the
   * session that chose it): a new one-time password signs out everyone who used the old one.
   */
  async setPassword(
    name: string,
    passwordHash: string,
    kind: PasswordKind,
    keepSessionHash: string | null = null,
  ): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const changed = await tx
        .updateTable('team_users')
        .set({ password_hash: passwordHash, is_password_one_time: kind === 'one-time' ? 1 : 0 })
        .where('name', '=', name)
        .executeTakeFirst()
      if (changed.numUpdatedRows === 0n) throw noSuchUser(name)
      let ended = tx.deleteFrom('team_sessions').where('user_name', '=', name)
      if (keepSessionHash !== null) ended = ended.where('token_hash', '!=', keepSessionHash)
      await ended.execute()
      await bumpRevision(tx)
    })
  }

  /** Starts a session for an account under the hash of its token. */
  async addSession(tokenHash: string, userName: string, nowSec: number): Promise<void> {
    await this.#db
      .insertInto('team_sessions')
      .values({
        token_hash: tokenHash,
        user_name: userName,
        created_at_sec: nowSec,
        last_seen_at_sec: nowSec,
      })
      .execute()
  }

  /** The session stored under a token hash, with its account's current role; null if none. */
  async findSession(tokenHash: string): Promise<TeamSession | null> {
    const row = await this.#db
      .selectFrom('team_sessions')
      .innerJoin('team_users', 'team_users.name', 'team_sessions.user_name')
      .select([
        'team_sessions.user_name',
        'team_users.role',
        'team_sessions.created_at_sec',
        'team_sessions.last_seen_at_sec',
        'team_users.is_password_one_time',
      ])
      .where('team_sessions.token_hash', '=', tokenHash)
      .executeTakeFirst()
    return row
      ? {
          userName: row.user_name,
          role: row.role,
          createdAtSec: row.created_at_sec,
          lastSeenAtSec: row.last_seen_at_sec,
          isPasswordOneTime: row.is_password_one_time === 1,
        }
      : null
  }

  /** Records that a session was used now (its idle time restarts). */
  async touchSession(tokenHash: string, nowSec: number): Promise<void> {
    await this.#db
      .updateTable('team_sessions')
      .set({ last_seen_at_sec: nowSec })
      .where('token_hash', '=', tokenHash)
      .execute()
  }

  /** Ends one session. */
  async removeSession(tokenHash: string): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom('team_sessions').where('token_hash', '=', tokenHash).execute()
      await bumpRevision(tx)
    })
  }

  /**
   * The revision of accounts and sessions: it moves with every change to who may do what
   * (an account removed, a role or password changed, a session ended), from any process.
   */
  async revision(): Promise<number> {
    const row = await this.#db
      .selectFrom('team_changes')
      .select('revision')
      .where('id', '=', 1)
      .executeTakeFirst()
    return Number(row?.revision ?? 0)
  }

  /** Ends the sessions idle since before `idleBeforeSec` or started before `startedBeforeSec`. */
  async removeExpiredSessions(idleBeforeSec: number, startedBeforeSec: number): Promise<void> {
    await this.#db
      .deleteFrom('team_sessions')
      .where((eb) =>
        eb.or([
          eb('last_seen_at_sec', '<', idleBeforeSec),
          eb('created_at_sec', '<', startedBeforeSec),
        ]),
      )
      .execute()
  }
}

/** Moves the revision, in the transaction of the change it marks. */
async function bumpRevision(tx: Transaction<Database>): Promise<void> {
  await tx
    .updateTable('team_changes')
    .set({ revision: sql`revision + 1` })
    .where('id', '=', 1)
    .execute()
}

function noSuchUser(name: string): NotFoundError {
  return new NotFoundError(`There is no user named “${name}”.`, { name })
}
