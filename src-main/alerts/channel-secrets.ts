/** What holds one secret text: the app's SecretStore (a 0600 file, or the OS keyring). */
export interface SecretHolder {
  read(): string | null
  write(secret: string): void
}

/** A channel's secret parts: its full URL (Slack's, Discord's and Telegram's carry a token) and its signing secret. */
export interface ChannelSecret {
  url: string
  /** HMAC-SHA256 key of json bodies; absent when unsigned. */
  signingSecret?: string
}

/** The file name of the channel secrets in the data folder. */
export const CHANNEL_SECRETS_FILE = 'notify-channels.json'

/**
 * Every outbound channel's secrets, as one JSON object by channel name in one secret
 * (the API key's kind of storage: a 0600 file, or safeStorage in the Electron shell).
 * The mirror keeps only what may be shown.
 */
export class ChannelSecrets {
  readonly #holder: SecretHolder
  constructor(holder: SecretHolder) {
    this.#holder = holder
  }

  #all(): Record<string, ChannelSecret> {
    const text = this.#holder.read()
    if (text === null) return {}
    try {
      return JSON.parse(text) as Record<string, ChannelSecret>
    } catch {
      // Unreadable (hand-edited, cut short): the channels must be added again.
      return {}
    }
  }

  /** A channel's secret, or null when none is kept (the channel must be added again). */
  get(name: string): ChannelSecret | null {
    return Object.hasOwn(this.#all(), name) ? (this.#all()[name] ?? null) : null
  }

  set(name: string, secret: ChannelSecret): void {
    this.#holder.write(JSON.stringify({ ...this.#all(), [name]: secret }))
  }

  remove(name: string): void {
    const { [name]: _removed, ...rest } = this.#all()
    this.#holder.write(JSON.stringify(rest))
  }

  /** Every secret value kept, for redacting texts. */
  values(): string[] {
    return Object.values(this.#all()).flatMap((s) => [
      s.url,
      ...secretPartsOf(s.url),
      ...(s.signingSecret ? [s.signingSecret] : []),
    ])
  }
}

/** The parts of a channel URL that are secret: its path segments and query values. */
function secretPartsOf(text: string): string[] {
  const url = URL.parse(text)
  if (url === null) return []
  const segments = url.pathname.split('/').filter((s) => s.length >= 8)
  const values = [...url.searchParams.values()].filter((v) => v.length >= 8)
  return [url.pathname, ...segments, ...values, ...(url.search ? [url.search] : [])].filter(
    (s) => s.length > 1,
  )
}
