import { describe, expect, it } from 'vitest'
import { createRedactor, redactText, redactUrl } from '../../../src-main/service/redact'

describe('redaction', () => {
  it('redacts api-key in URLs, whatever the key', () => {
    expect(redactUrl('https://mainnet.helius-rpc.com/?api-key=abc-123&x=1')).toBe(
      'https://mainnet.helius-rpc.com/?api-key=***&x=1',
    )
    expect(redactText('GET /v0/webhooks?API-KEY=zz')).toBe('GET /v0/webhooks?API-KEY=***')
    expect(redactText('url?apiKey=zz#top')).toBe('url?apiKey=***#top')
  })
  it('redacts X-Api-Key header dumps', () => {
    expect(redactText('x-api-key: abcdef')).toBe('x-api-key: ***')
    expect(redactText('{"X-Api-Key":"abcdef"}')).toBe('{"X-Api-Key":"***"}')
  })
  it('removes a known key anywhere, also URL-encoded', () => {
    const redact = createRedactor(['k3y/with+chars'])
    expect(redact('bad key k3y/with+chars!')).toBe('bad key ***!')
    expect(redact(`see ${encodeURIComponent('k3y/with+chars')}`)).toBe('see ***')
  })
  it('leaves other text alone and ignores an empty secret', () => {
    expect(createRedactor([''])('nothing secret here')).toBe('nothing secret here')
  })
})
