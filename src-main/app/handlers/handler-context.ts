import type { ImageCache } from '../image-cache'
import type { AppFacts } from '@shared/ipc/app-schemas'
import type { DataSource } from '@shared/ipc/settings-schemas'
import type { DemoKept } from '@shared/domain/first-own-wallet'
import type { Mirror } from '../../db/mirror'
import type { SettingsStore } from '../../db/stores/settings-store'
import type { ExportHandoffs } from '../../export/export-downloads'
import type { EventBus } from '../event-bus'
import type { SecretStore } from '../secret-store'
import type { ServiceSession } from '../service-session'
import type { WebhookMode } from '../../webhooks/webhook-mode'

/** A path the shell let the person choose (a save dialog), or null when they cancelled. */
export type ChoosePath = (suggestion: { fileName: string }) => Promise<string | null>

/**
 * What every handler may use. `mirror` and `session` belong to the current data source
 * and change when the person switches it: read them at each call, never keep them.
 */
export interface HandlerContext {
  /** The mirror of the current data source (the person's own, or the demo mirror). */
  readonly mirror: Mirror
  /**
   * The person's own mirror, whatever is shown: what they add goes here, never into the
   * demo's sample data.
   */
  readonly ownMirror: Mirror
  /** The app's settings, kept in the person's own mirror whatever the data source. */
  readonly settings: SettingsStore
  readonly session: ServiceSession
  readonly events: EventBus
  readonly info: AppFacts
  readonly secretStore: SecretStore
  /** The key in use (one-run override, else stored), or null. Never leaves main. */
  apiKey(): string | null
  /** Whether the person's own data is shown and syncing waits for a key they have not entered. */
  isKeyNeeded(): boolean
  /** Export hand-offs: one-time downloads (web shell) and save-dialog grants. */
  readonly exports: ExportHandoffs
  /** NFT and token images, served from the data folder instead of their hosts. */
  readonly images: ImageCache
  /** The shell's save dialog; absent where the browser downloads exports instead. */
  readonly choosePath: ChoosePath | undefined
  /**
   * Switches to another data source: closes one mirror and session, opens the other's. A
   * switch made by the first own wallet says what the demo keeps.
   */
  switchDataSource(source: DataSource, demoKept?: DemoKept): Promise<void>
  /** Rebuilds the session after the key or the service settings changed. */
  reconnect(): Promise<void>
  nowSec(): number
  /** Webhook mode while this process runs it (a server with a public URL), else null. */
  webhookMode(): WebhookMode | null
}
