import type { Generated } from 'kysely'

/** The mirror's tables as Kysely sees them. Migrations define them; this only types them. */
export interface Database {
  wallets: WalletsTable
  settings: SettingsTable
}

export interface WalletsTable {
  id: Generated<number>
  address: string
  label: string | null
  /** Order in the sidebar, lowest first. */
  position: number
  added_at_sec: number
}

export interface SettingsTable {
  key: string
  value_json: string
  updated_at_sec: Generated<number>
}
