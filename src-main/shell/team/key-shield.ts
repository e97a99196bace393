import type { Envelope } from '@shared/ipc/envelope'

/** What the team server shows instead of the key's last characters. */
export const KEPT_KEY_HINT = '••••'

/**
 * The API key stays on the team server: not even its last characters reach a browser.
 * Settings answers (every `settings:*` channel) carry `apiKeyHint`; the rest never carry
 * the key, and errors are redacted by the core.
 */
export function withoutKeyHint(envelope: Envelope<unknown>): Envelope<unknown> {
  if (!envelope.ok) return envelope
  const result = envelope.result
  if (typeof result !== 'object' || result === null || !Object.hasOwn(result, 'apiKeyHint'))
    return envelope
  const hint = (result as { apiKeyHint: unknown }).apiKeyHint
  return { ok: true, result: { ...result, apiKeyHint: hint === null ? null : KEPT_KEY_HINT } }
}
