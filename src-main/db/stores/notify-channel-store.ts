import type { Kysely } from 'kysely'
import type { Database, NotifyChannelsTable } from '../schema'

/** An outbound channel as kept in the mirror: everything but its secrets. */
export interface StoredNotifyChannel {
  name: string
  format: NotifyChannelsTable['format']
  urlShown: string
  chatId: string | null
  isPrivateNetworkAllowed: boolean
  createdAtSec: number
}

/**
 * The outbound alert channels (`notify add`): name, format and the URL as shown. The full
 * URL (Slack's and Discord's carry a token, Telegram's the bot token) and the signing
 * secret live in the channel secret store, never here.
 */
export class NotifyChannelStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Every channel, by name. */
  async list(): Promise<StoredNotifyChannel[]> {
    const rows = await this.#db.selectFrom('notify_channels').selectAll().orderBy('name').execute()
    return rows.map(toChannel)
  }

  /** One channel, or null when no channel has that name. */
  async get(name: string): Promise<StoredNotifyChannel | null> {
    const row = await this.#db
      .selectFrom('notify_channels')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst()
    return row === undefined ? null : toChannel(row)
  }

  /** Adds a channel; resolves to false when one of that name exists (nothing is changed). */
  async add(channel: StoredNotifyChannel): Promise<boolean> {
    const row = await this.#db
      .insertInto('notify_channels')
      .values({
        name: channel.name,
        format: channel.format,
        url_shown: channel.urlShown,
        chat_id: channel.chatId,
        is_private_network_allowed: channel.isPrivateNetworkAllowed ? 1 : 0,
        created_at_sec: channel.createdAtSec,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst()
    return row !== undefined
  }

  /** Removes a channel; resolves to whether there was one. */
  async remove(name: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('notify_channels')
      .where('name', '=', name)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }
}

function toChannel(row: {
  name: string
  format: NotifyChannelsTable['format']
  url_shown: string
  chat_id: string | null
  is_private_network_allowed: number
  created_at_sec: number
}): StoredNotifyChannel {
  return {
    name: row.name,
    format: row.format,
    urlShown: row.url_shown,
    chatId: row.chat_id,
    isPrivateNetworkAllowed: row.is_private_network_allowed === 1,
    createdAtSec: Number(row.created_at_sec),
  }
}
